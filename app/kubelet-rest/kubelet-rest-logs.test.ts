// Container logs through the kubelet's REST API, against the simulated kubelet's HTTPS API in REST mode
// reading the CRI files the simulator writes: the lines are the ones the file reader gives for the same files
// and options; previous, follow (ended when the container restarts) and the kubelet's own errors.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type RequestListener, type Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containerLogs } from '../logs/container-logs';
import { localFileAccess } from '../logs/local-file-access';
import { KubeletError } from '../kubelet/kubelet-error';
import { LogAccessError } from '../logs/log-file-access';
import type { KubeletLogTarget, LogReadOptions } from '../logs/log-options';
import type { PodObject } from '../pod/pod-tree';
import { startKubeletRest, type SimulatedKubeletRest } from '../sim/kubelet-rest-server';
import { restartContainer } from '../sim/pod-changes';
import { generatePods } from '../sim/pod-generator';
import { containerStatuses } from '../sim/pod-status';
import { PodStore } from '../sim/pod-store';
import { Prng } from '../sim/prng';
import { startSimContainerLogs, type SimContainerLogs } from '../sim/sim-container-logs';
import { containerLogsPath, readRestContainerLog, type RestLogsOptions } from './kubelet-rest-logs';
import { createRestTransport, type RestTransportOptions } from './kubelet-rest-transport';

let dir: string;
let store: PodStore;
let logs: SimContainerLogs;
let rest: SimulatedKubeletRest;
let o: RestLogsOptions;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ns-restlogs-'));
  store = new PodStore(generatePods(12, { seed: 5, nodeName: 'n1', nowMs: Date.now() }));
  logs = startSimContainerLogs(store, { dir, seed: 5, intervalMs: 0, linesPerTick: 3 });
  for (let i = 0; i < 10; i++) logs.tick();
  rest = await startKubeletRest(store, 'n1', { tokens: { tok: 'alice' }, logDir: dir });
  o = { transport: transport(), host: 'n1', port: rest.port, tls: true, credential: 'bearer token', tokenAuth: true };
});
afterAll(async () => {
  logs.stop();
  await rest.stop();
  await rm(dir, { recursive: true, force: true });
});

/** HTTPS to the simulator's port with the token, its certificate checked against itself. */
const transport = (extra: Partial<RestTransportOptions> = {}) =>
  createRestTransport({
    channel: { open: async () => connect(rest.port, '127.0.0.1'), activeMode: () => 'direct', lastError: () => null },
    host: 'n1',
    port: rest.port,
    tls: true,
    credentials: { token: 'tok', description: 'bearer token' },
    trust: { ca: rest.certificatePem, pinsFile: '/nonexistent/pins', pinName: 'n1' },
    ...extra,
  });

/** A pod with a running container, as the simulator generated it. */
function running(): { pod: PodObject; container: string } {
  const pod = store.list().find((p) => containerStatuses(p).some((c) => (c.state as PodObject).running))!;
  return { pod, container: String(containerStatuses(pod).find((c) => (c.state as PodObject).running)!.name) };
}

const targetOf = (pod: PodObject, container: string, previous = false): KubeletLogTarget => {
  const m = pod.metadata as PodObject;
  return { namespace: String(m.namespace), pod: String(m.name), container, previous };
};

async function viaRest(t: KubeletLogTarget, read: LogReadOptions): Promise<string> {
  let out = '';
  for await (const l of readRestContainerLog(o, t, read)) out += l.toString();
  return out;
}

async function viaFiles(t: KubeletLogTarget, uid: string, read: LogReadOptions): Promise<string> {
  let out = '';
  const pod = { namespace: t.namespace, name: t.pod, uid, path: join(dir, `${t.namespace}_${t.pod}_${uid}`) };
  for await (const w of containerLogs(localFileAccess()).read({ pod, container: t.container, previous: t.previous ?? false }, read)) out += w.bytes.toString();
  return out;
}

describe('container logs through the kubelet REST API (the simulator in REST mode)', () => {
  it('puts the options in the query as the kubelet names them, every name one encoded path segment', () => {
    const path = containerLogsPath({ namespace: 'ns', pod: 'a/b?c', container: 'x y', previous: true }, { follow: true, timestamps: true, tailLines: 5, limitBytes: 10, sinceSeconds: 60, sinceNanos: 1n });
    expect(path).toBe('/containerLogs/ns/a%2Fb%3Fc/x%20y?follow=true&previous=true&timestamps=true&tailLines=5&limitBytes=10&sinceSeconds=60');
    expect(containerLogsPath({ namespace: 'ns', pod: 'p', container: 'c' }, { sinceNanos: 1_767_261_600_500_000_000n })).toBe('/containerLogs/ns/p/c?sinceTime=2026-01-01T10%3A00%3A00Z');
  });

  it('reads the same lines as the files give, with tail, timestamps, limit bytes and since', async () => {
    const { pod, container } = running();
    const t = targetOf(pod, container);
    const uid = String((pod.metadata as PodObject).uid);
    for (const read of [{}, { tailLines: 4 }, { tailLines: 3, timestamps: true }, { limitBytes: 100 }, { tailLines: 0 }, { sinceNanos: 0n, timestamps: true }] satisfies LogReadOptions[]) {
      const expected = await viaFiles(t, uid, read);
      expect(expected.length, JSON.stringify(read, (_, v) => (typeof v === 'bigint' ? String(v) : v))).toBeGreaterThanOrEqual(read.tailLines === 0 ? 0 : 1);
      expect(await viaRest(t, read)).toBe(expected);
    }
  });

  it('reads the previous instance after a restart, and answers the kubelet\'s words when there is none', async () => {
    const { pod, container } = running();
    const t = targetOf(pod, container, true);
    await expect(viaRest(t, {})).rejects.toThrow(`400 previous terminated container ${JSON.stringify(container)} in pod ${JSON.stringify(t.pod)} not found`);
    const restarted = restartContainer(pod, new Prng(3), Date.now())!;
    store.apply({ op: 'update', pod: restarted });
    const name = String(containerStatuses(restarted).find((c) => (c.lastState as PodObject | undefined)?.terminated)!.name);
    const previous = await viaRest(targetOf(restarted, name, true), { tailLines: 5 });
    expect(previous).toMatch(/\n$/);
    expect(previous).toBe(await viaFiles(targetOf(restarted, name, true), String((pod.metadata as PodObject).uid), { tailLines: 5 }));
  });

  it('follows: lines as they are written, until the caller stops', async () => {
    const { pod, container } = running();
    const stop = new AbortController();
    const seen: string[] = [];
    const reading = (async () => {
      for await (const l of readRestContainerLog(o, targetOf(pod, container), { follow: true, tailLines: 0, signal: stop.signal })) seen.push(l.toString());
    })();
    await expect.poll(() => (logs.tick(), seen.length)).toBeGreaterThan(2);
    stop.abort();
    await reading;
  });

  it('a follow may stay quiet longer than the call timeout: waiting for lines is not a kubelet that hangs', async () => {
    const { pod, container } = running();
    const quick = { ...o, transport: transport({ callTimeoutMs: 100 }) };
    const stop = new AbortController();
    const seen: string[] = [];
    let failed: unknown;
    const reading = (async () => {
      for await (const l of readRestContainerLog(quick, targetOf(pod, container), { follow: true, tailLines: 1, signal: stop.signal })) seen.push(l.toString());
    })().catch((err: unknown) => (failed = err));
    await expect.poll(() => seen.length).toBe(1);
    // Quiet for several call timeouts (the wait is the point here, not a condition to poll for).
    const quietSince = performance.now();
    await expect.poll(() => performance.now() - quietSince, { interval: 50 }).toBeGreaterThan(600);
    expect(failed).toBeUndefined();
    await expect.poll(() => (logs.tick(), seen.length)).toBeGreaterThan(1);
    stop.abort();
    await reading;
    expect(failed).toBeUndefined();
  });

  it('a follow ends by itself when the container restarts, as the kubelet ends it, having sent the crash', async () => {
    const { pod, container } = running();
    const seen: string[] = [];
    const reading = (async () => {
      for await (const l of readRestContainerLog(o, targetOf(pod, container), { follow: true, tailLines: 0 })) seen.push(l.toString());
    })();
    await expect.poll(() => (logs.tick(), seen.length)).toBeGreaterThan(0);
    const restarted = restartContainer(store.get(String((pod.metadata as PodObject).uid))!, new Prng(11), Date.now())!;
    store.apply({ op: 'update', pod: restarted });
    await reading;
    expect(seen.join('')).toContain('panic: runtime error');
  });

  it('answers a pod or container the kubelet does not have with 404 and its words, as a log not found', async () => {
    const { pod } = running();
    const err = await viaRest({ namespace: 'default', pod: 'no-such-pod', container: 'app' }, {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LogAccessError);
    expect((err as LogAccessError).code).toBe('NOT_FOUND');
    expect((err as Error).message).toContain('404 pod "no-such-pod" does not exist');
    await expect(viaRest(targetOf(pod, 'nope'), {})).rejects.toThrow(`404 container "nope" not found in pod ${JSON.stringify((pod.metadata as PodObject).name)}`);
  });

  it('is refused by the kubelet without the right credential, saying so', async () => {
    const { pod, container } = running();
    await expect(viaRest(targetOf(pod, container), { includeRotated: true })).rejects.toThrow('never the rotated ones');
    const denied = { ...o, transport: transport({ credentials: {} }) };
    const err = await (async () => {
      for await (const _ of readRestContainerLog(denied, targetOf(pod, container), {})) void _;
    })().catch((e: unknown) => e);
    expect((err as Error).message).toContain('401');
  });

  it('hands on a line that never ends in pieces as it comes, rather than holding all of it (a follow grew without bound)', async () => {
    // A kubelet following a container that prints no newline: P chunks joined without end.
    const chunk = Buffer.alloc(64 * 1024, 0x78);
    let sent = 0;
    const { server, options } = await plainKubelet((_req, res) => {
      const more = () => {
        while (sent < 64 << 20 && res.write(chunk)) sent += chunk.length;
      };
      res.on('drain', more);
      more();
    });
    const stop = new AbortController();
    let received = 0;
    let largest = 0;
    const reading = (async () => {
      for await (const l of readRestContainerLog(options, { namespace: 'ns', pod: 'p', container: 'c' }, { follow: true, signal: stop.signal })) {
        received += l.length;
        largest = Math.max(largest, l.length);
      }
    })().catch(() => {});
    try {
      await expect.poll(() => received).toBeGreaterThanOrEqual(8 << 20);
      expect(largest).toBeLessThanOrEqual((1 << 20) + chunk.length);
    } finally {
      stop.abort();
      await reading;
      server.closeAllConnections();
      server.close();
    }
  });

  it('a follow whose connection closes in the middle of the answer fails saying so, to be tried again (not Node\'s "aborted")', async () => {
    const { server, options } = await plainKubelet((_req, res) => {
      res.write('2026-01-01 first line\n');
      // The SSH link dropped, or the kubelet restarted: the connection goes without the answer's end.
      setImmediate(() => res.socket?.destroy());
    });
    const seen: string[] = [];
    try {
      const err = await (async () => {
        for await (const l of readRestContainerLog(options, { namespace: 'ns', pod: 'p', container: 'c' }, { follow: true })) seen.push(l.toString());
      })().then(() => new Error('the follow ended without an error'), (e: unknown) => e);
      expect(seen).toEqual(['2026-01-01 first line\n']);
      expect(err).toBeInstanceOf(KubeletError);
      expect((err as KubeletError).message).toBe(`The kubelet on n1 port ${options.port} did not answer GET /containerLogs/ns/p/c?follow=true to its end: the connection closed in the middle of the answer`);
      expect((err as KubeletError).retryable).toBe(true);
    } finally {
      server.close();
    }
  });

  it('a read its caller stops before the kubelet answers ends quietly, as a file read does (not with an error)', async () => {
    let asked!: () => void;
    const askedOnce = new Promise<void>((r) => (asked = r));
    // Takes the request and says nothing, as a kubelet busy or a link slow.
    const { server, options } = await plainKubelet(() => asked());
    const stop = new AbortController();
    try {
      const reading = (async () => {
        for await (const _ of readRestContainerLog(options, { namespace: 'ns', pod: 'p', container: 'c' }, { follow: true, signal: stop.signal })) void _;
      })();
      await askedOnce;
      stop.abort();
      await expect(reading).resolves.toBeUndefined();
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

/** A plain-HTTP stand-in for the kubelet on a loopback port, answering with `handler`, and the options to read it. */
async function plainKubelet(handler: RequestListener): Promise<{ server: Server; options: RestLogsOptions }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const plain = createRestTransport({ channel: { open: async () => connect(port, '127.0.0.1'), activeMode: () => 'direct', lastError: () => null }, host: 'n1', port, tls: false, credentials: {}, trust: { pinsFile: '', pinName: '' } });
  return { server, options: { transport: plain, host: 'n1', port, tls: false, credential: 'none', tokenAuth: false } };
}
