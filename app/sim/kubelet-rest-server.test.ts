// The simulated kubelet's HTTPS API served directly (no SSH): what each endpoint answers, and the
// kubelet's authentication and authorization answers.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { get as httpGet } from 'node:http';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PodObject } from '../pod/pod-tree';
import { containerUsage, probeCounts } from './container-usage';
import { startKubeletRest, subresourcesFor, type SimulatedKubeletRest } from './kubelet-rest-server';
import { createClientCa, type PemPair } from './kubelet-pki';
import { PodGenerator } from './pod-generator';
import { PodStore } from './pod-store';

let rest: SimulatedKubeletRest;
let store: PodStore;
let client: PemPair;

beforeAll(async () => {
  const generator = new PodGenerator({ seed: 9, nodeName: 'n1' });
  store = new PodStore(Array.from({ length: 12 }, () => generator.existing(Date.now())));
  rest = await startKubeletRest(store, 'n1', { tokens: { good: 'alice' } });
  client = await rest.clientCa.issue('carol');
});
afterAll(() => rest.stop());

function get(path: string, auth: { token?: string; cert?: PemPair } = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: rest.port,
        path,
        ca: rest.certificatePem,
        ...(auth.token ? { headers: { Authorization: `Bearer ${auth.token}` } } : {}),
        ...(auth.cert ? { cert: auth.cert.certPem, key: auth.cert.keyPem } : {}),
      },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('the simulated kubelet HTTPS API', () => {
  it('serves a certificate for the node, localhost and 127.0.0.1 that verifies as its own CA', async () => {
    expect((await get('/healthz', { token: 'good' })).body).toBe('ok');
  });

  it('answers 401 without a credential, with an unknown token, or a certificate from another CA', async () => {
    const stranger = await (await createClientCa('stranger')).issue('mallory');
    for (const auth of [{}, { token: 'bad' }, { cert: stranger }]) expect((await get('/pods', auth)).status).toBe(401);
  });

  it('serves /pods, /runningpods/ (with pods the runtime still runs), /configz and 404 for the rest', async () => {
    const pods = JSON.parse((await get('/pods', { cert: client })).body) as { kind: string; items: { metadata: { uid: string } }[] };
    expect(pods.kind).toBe('PodList');
    expect(pods.items.map((p) => p.metadata.uid)).toEqual([...store.uids()]);
    const gone = store.list()[0]!;
    rest.lingering.set('x', gone);
    const running = JSON.parse((await get('/runningpods/', { cert: client })).body) as { items: { metadata: { uid: string } }[] };
    expect(running.items.map((p) => p.metadata.uid)).toContain((gone.metadata as PodObject).uid);
    expect(JSON.parse((await get('/configz', { token: 'good' })).body).kubeletconfig.nodeName).toBe('n1');
    expect((await get('/nope', { token: 'good' })).status).toBe(404);
    const resource = (await get('/metrics/resource', { cert: client })).body;
    const summary = JSON.parse((await get('/stats/summary', { cert: client })).body) as { pods: { podRef: { name: string } }[] };
    for (const p of summary.pods) expect(resource).toContain(`pod="${p.podRef.name}"`);
    expect(resource.match(/^pod_cpu_usage_seconds_total\{/gm)).toHaveLength(summary.pods.length);
  });

  it("answers 403 naming the subresource, and 500 Authorization error while the authorizer cannot reach the API server", async () => {
    const limited = await startKubeletRest(store, 'n1', { tokens: { t: 'bob' }, allow: { bob: ['stats'] } });
    try {
      const r = await new Promise<{ status: number; body: string }>((resolve) => {
        request({ host: '127.0.0.1', port: limited.port, path: '/pods', rejectUnauthorized: false, headers: { Authorization: 'Bearer t' } }, (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        }).end();
      });
      expect(r).toEqual({ status: 403, body: 'Forbidden (user=bob, verb=get, resource=nodes, subresource=proxy)' });
    } finally {
      await limited.stop();
    }
    rest.setAuthorizer('webhook-down');
    try {
      expect(await get('/stats/summary', { cert: client })).toEqual({ status: 500, body: 'Authorization error (user=carol, verb=get, resource=nodes, subresource=stats)' });
      // A token needs the API server to be reviewed at all: 401.
      expect((await get('/pods', { token: 'good' })).status).toBe(401);
    } finally {
      rest.setAuthorizer('ok');
    }
  });

  it('follows a log for a reader that holds it back without gathering a listener per wait on the follow\'s end', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ns-simlogs-'));
    const withLogs = await startKubeletRest(store, 'n1', { tokens: { good: 'alice' }, logDir: dir });
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const pod = store.list().find((p) => ((p.status as PodObject).containerStatuses as PodObject[] | undefined)?.some((c) => (c.state as PodObject).running))!;
      const { namespace, name, uid } = pod.metadata as { namespace: string; name: string; uid: string };
      const container = String(((pod.status as PodObject).containerStatuses as PodObject[]).find((c) => (c.state as PodObject).running)!.name);
      await mkdir(join(dir, `${namespace}_${name}_${uid}`, container), { recursive: true });
      const line = `2026-01-01T10:00:00.000000001Z stdout F ${'x'.repeat(200)}\n`;
      await writeFile(join(dir, `${namespace}_${name}_${uid}`, container, '0.log'), line.repeat(20_000));
      // Each time the reader is behind, the answer waits for it: many waits over 4 MB.
      const received = await new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: withLogs.port, path: `/containerLogs/${namespace}/${name}/${container}?follow=true`, ca: withLogs.certificatePem, headers: { Authorization: 'Bearer good' } }, (res) => {
          let bytes = 0;
          res.on('data', (d: Buffer) => {
            bytes += d.length;
            if (bytes >= 20_000 * 201) {
              req.destroy();
              resolve(bytes);
            }
          });
        });
        req.on('error', reject);
        req.end();
      });
      expect(received).toBe(20_000 * 201);
      await new Promise((r) => setImmediate(r));
      expect(warnings.map((w) => w.message)).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await withLogs.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('answers /containerLogs requests it cannot serve as the kubelet does: 400, 422 and 404 with its words', async () => {
    const pod = store.list().find((p) => ((p.status as PodObject).containerStatuses as PodObject[] | undefined)?.some((c) => (c.state as PodObject).running))!;
    const { namespace, name } = pod.metadata as { namespace: string; name: string };
    const container = String(((pod.status as PodObject).containerStatuses as PodObject[]).find((c) => (c.state as PodObject).running)!.name);
    const at = (query: string, c = container, n = name) => get(`/containerLogs/${namespace}/${n}/${c}${query}`, { token: 'good' });
    expect(await at('?tailLines=ten')).toEqual({ status: 400, body: '{"message": "Unable to decode query."}' });
    expect(await at('?follow=yes')).toEqual({ status: 400, body: '{"message": "Unable to decode query."}' });
    for (const q of ['?tailLines=-1', '?limitBytes=0', '?sinceSeconds=0', '?sinceSeconds=5&sinceTime=2026-01-01T00:00:00Z', '?stream=Stdout']) {
      expect(await at(q), q).toEqual({ status: 422, body: '{"message": "Invalid request."}' });
    }
    expect(await at('', container, 'gone')).toEqual({ status: 404, body: 'pod "gone" does not exist' });
    expect(await at('', 'nope')).toEqual({ status: 404, body: `container "nope" not found in pod "${name}"` });
    expect(await at('?previous=true')).toEqual({ status: 400, body: `previous terminated container "${container}" in pod "${name}" not found` });
    // Without a log folder the container has no log file: the reader's failure, as 400.
    expect((await at('?tail=all')).status).toBe(400);
    // The read-only port serves the default handlers only.
    const open = await startKubeletRest(store, 'n1', { readOnlyPort: 0 });
    try {
      for (const path of ['/configz', `/containerLogs/${namespace}/${name}/${container}`]) {
        const status = await new Promise<number>((resolve, reject) => httpGet({ host: '127.0.0.1', port: open.readOnlyPort!, path }, (res) => resolve(res.resume().statusCode!)).on('error', reject));
        expect(status, path).toBe(404);
      }
    } finally {
      await open.stop();
    }
  });

  it('maps paths to the subresources the kubelet checks', () => {
    expect(subresourcesFor('/pods')).toEqual(['pods', 'proxy']);
    expect(subresourcesFor('/stats/summary')).toEqual(['stats']);
    expect(subresourcesFor('/metrics/probes')).toEqual(['metrics']);
    expect(subresourcesFor('/configz')).toEqual(['configz', 'proxy']);
  });

  it('reports use that changes with time, and probe counts that grow once a period', () => {
    const a = containerUsage('uid-1', 'web', 1_000_000);
    const b = containerUsage('uid-1', 'web', 1_005_000);
    expect(a).not.toEqual(b);
    expect(containerUsage('uid-1', 'web', 1_000_000)).toEqual(a);
    const probe = { periodSeconds: 10, failureThreshold: 3 };
    const c = { startedMs: 0, ready: true, restarts: 2 };
    expect(probeCounts(probe, 'Liveness', c, 0, 95_000)).toEqual({ successful: 4, failed: 6 });
    expect(probeCounts(probe, 'Readiness', { ...c, ready: false }, 50_000, 95_000)).toEqual({ successful: 0, failed: 5 });
  });
});
