import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { PodObject } from '../pod/pod-tree';
import { podsClient } from '../sim/pods-test-client';

const bin = resolve(__dirname, '..', '..', 'bin', 'nodescope.js');
const dir = mkdtempSync(join(tmpdir(), 'nodescope-sim-cli-'));
const children: ChildProcessWithoutNullStreams[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts `nodescope sim` and resolves once it says it is serving. */
async function startSim(args: string[]) {
  const child = spawn(process.execPath, [bin, 'sim', ...args]);
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  await new Promise<void>((ready, failed) => {
    child.stdout.on('data', () => stdout.includes('Stop with Ctrl-C.') && ready());
    void exited.then((code) => failed(new Error(`nodescope sim exited with ${code}: ${stderr}`)));
  });
  return { child, exited, output: () => ({ stdout, stderr }) };
}

function nodescope(args: string[]) {
  // A sim that failed to start but never exits (or ignores SIGTERM) fails the test instead of hanging it.
  const r = spawnSync(process.execPath, [bin, 'sim', ...args], { encoding: 'utf8', timeout: 60_000, killSignal: 'SIGKILL' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('nodescope sim', () => {
  it('serves the pods it announces until SIGTERM, then removes its sockets and exits 0', async () => {
    const socket = join(dir, 'shipped.sock');
    const documented = join(dir, 'documented.sock');
    const sim = await startSim(['--socket', socket, '--api', 'both', '--documented-socket', documented, '--pods', '25', '--seed', '9', '--node', 'edge-3']);
    expect(sim.output().stdout).toContain('serving 25 pods of node edge-3 (seed 9)');
    expect(sim.output().stdout).toContain(`shipped Pods API (/v1alpha1.Pods/*) on unix:${socket}`);
    expect(sim.output().stdout).toContain(`documented Pods API (/Pods/*, field masks honoured) on unix:${documented}`);
    expect(statSync(socket).mode & 0o777).toBe(0o600);

    const shipped = podsClient(socket, 'shipped');
    const docs = podsClient(documented, 'documented');
    try {
      const pods = await shipped.list();
      expect(pods).toHaveLength(25);
      // Every scheduled pod is on the named node (an unschedulable one has an empty nodeName).
      expect(new Set(pods.map((p) => (p.spec as PodObject).nodeName).filter(Boolean))).toEqual(new Set(['edge-3']));
      expect((await docs.list()).map((p) => (p.metadata as PodObject).uid)).toEqual(pods.map((p) => (p.metadata as PodObject).uid));
    } finally {
      shipped.close();
      docs.close();
    }

    sim.child.kill('SIGTERM');
    expect(await sim.exited).toBe(0);
    expect(sim.output().stdout).toMatch(/stopped on SIGTERM after \d+ changes \(shipped: 1 lists, 0 gets, 0 watches, 0 watchers dropped; documented: 1 lists/);
    expect(() => statSync(socket)).toThrow();
    expect(() => statSync(documented)).toThrow();
  });

  it('stops on SIGINT too, ending open watches, and answers as initializing at first when asked', async () => {
    const socket = join(dir, 'init.sock');
    const sim = await startSim(['--socket', socket, '--pods', '5', '--churn', '50', '--initializing', '1.5', '--strict-watch-buffer']);
    expect(sim.output().stdout).toContain('churn: 50 changes/s; watchers dropped beyond 100 pending events (strict: none held in transit, queued events discarded)');
    expect(sim.output().stdout).toContain('initializing for 1.5 s after start');
    const c = podsClient(socket, 'shipped');
    try {
      const early = await c.list().catch((e: grpc.ServiceError) => e);
      expect((early as grpc.ServiceError).code).toBe(grpc.status.FAILED_PRECONDITION);
      expect((early as grpc.ServiceError).details).toBe('Kubelet is initializing');
      await expect.poll(() => c.list().then(() => 'serving', (e: grpc.ServiceError) => e.details), { timeout: 5000, interval: 100 }).toBe('serving');
      const watch = c.watch();
      const ended = new Promise<grpc.ServiceError>((r) => watch.on('error', r));
      await new Promise((r) => watch.once('data', r));
      sim.child.kill('SIGINT');
      expect((await ended).code).toBe(grpc.status.UNAVAILABLE);
      expect(await sim.exited).toBe(0);
      expect(sim.output().stdout).toMatch(/stopped on SIGINT/);
    } finally {
      c.close();
    }
  });

  it('stops on SIGHUP (its terminal closed) as on Ctrl-C: the socket removed, exit 0', async () => {
    const socket = join(dir, 'hangup.sock');
    const sim = await startSim(['--socket', socket, '--pods', '1']);
    sim.child.kill('SIGHUP');
    expect(await sim.exited).toBe(0);
    expect(sim.output().stdout).toMatch(/stopped on SIGHUP/);
    expect(() => statSync(socket)).toThrow();
  });

  it('refuses a socket path that a running server uses', async () => {
    const socket = join(dir, 'busy.sock');
    const first = await startSim(['--socket', socket, '--pods', '1']);
    const second = nodescope(['--socket', socket]);
    expect(second.code).toBe(2);
    expect(second.stderr).toContain(`${socket} is in use by a running server`);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
  });

  it('serves the kubelet HTTPS API with the token and client certificate it was given, and PodResources', async () => {
    const socket = join(dir, 'rest.sock');
    const resources = join(dir, 'pod-resources.sock');
    const tokenFile = join(dir, 'sim-token');
    writeFileSync(tokenFile, 'tok-sim-123\n');
    const sim = await startSim(['--socket', socket, '--pods', '7', '--rest-port', '0', '--token-file', tokenFile, '--client-cert-dir', dir, '--pod-resources-socket', resources]);
    const line = /REST API on https:\/\/127\.0\.0\.1:(\d+) \(serving certificate SHA-256 ([0-9A-F:]{95})\)/.exec(sim.output().stdout);
    expect(line, sim.output().stdout).not.toBeNull();
    expect(sim.output().stdout).toContain(`PodResources API on unix:${resources}`);
    for (const f of ['client.crt', 'client.key']) expect(statSync(join(dir, f)).mode & 0o777).toBe(0o600);
    const get = (headers: Record<string, string>, cert?: { cert: string; key: string }) =>
      new Promise<{ status: number; body: string; fingerprint: string }>((done, fail) => {
        const req = httpsRequest({ host: '127.0.0.1', port: Number(line![1]), path: '/pods', rejectUnauthorized: false, headers, ...cert }, (res) => {
          let body = '';
          const fingerprint = (res.socket as TLSSocket).getPeerCertificate().fingerprint256;
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => done({ status: res.statusCode!, body, fingerprint }));
        });
        req.on('error', fail);
        req.end();
      });
    const byToken = await get({ Authorization: 'Bearer tok-sim-123' });
    expect(byToken.status).toBe(200);
    expect(byToken.fingerprint).toBe(line![2]);
    expect((JSON.parse(byToken.body) as { items: unknown[] }).items).toHaveLength(7);
    expect((await get({}, { cert: readFileSync(join(dir, 'client.crt'), 'utf8'), key: readFileSync(join(dir, 'client.key'), 'utf8') })).status).toBe(200);
    expect((await get({ Authorization: 'Bearer wrong' })).status).toBe(401);
    sim.child.kill('SIGTERM');
    expect(await sim.exited).toBe(0);
    expect(nodescope(['--socket', join(dir, 'x.sock'), '--token-file', tokenFile]).stderr).toContain('need --rest-port');
  });

  it('refuses a --client-cert-dir that is missing or not a folder before serving, exits 2 and leaves nothing serving', () => {
    const socket = join(dir, 'certs.sock');
    const missing = join(dir, 'no-such-folder');
    const r = nodescope(['--socket', socket, '--rest-port', '0', '--client-cert-dir', missing]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--client-cert-dir ${missing} does not exist; create it first (mkdir -p ${missing})`);
    expect(r.stdout).not.toContain('serving');
    expect(() => statSync(socket)).toThrow();
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    const notFolder = nodescope(['--socket', socket, '--rest-port', '0', '--client-cert-dir', file]);
    expect(notFolder.code).toBe(2);
    expect(notFolder.stderr).toContain(`--client-cert-dir ${file} is not a folder`);
    expect(() => statSync(socket)).toThrow();
  });

  it('explains bad command lines and exits 2', () => {
    const missingDir = nodescope(['--socket', join(dir, 'absent', 'x.sock')]);
    expect(missingDir.code).toBe(2);
    expect(missingDir.stderr).toContain(`the socket's directory ${join(dir, 'absent')} does not exist; create it first (mkdir -p ${join(dir, 'absent')})`);
    expect(nodescope([]).stderr).toContain('--socket PATH is required');
    expect(nodescope(['--socket', join(dir, 'x.sock'), '--pods', 'many']).stderr).toContain("--pods must be a whole number >= 0, got 'many'");
    expect(nodescope(['--socket', join(dir, 'x.sock'), '--api', 'both']).stderr).toContain('--api both needs --documented-socket PATH');
    expect(nodescope(['--socket', join(dir, 'x.sock'), '--api', 'v2']).stderr).toContain("--api must be shipped, documented or both, got 'v2'");
    expect(nodescope(['--socket', join(dir, 'x.sock'), '--churn', '-5']).code).toBe(2);
    expect(nodescope(['--socket', join(dir, 'x.sock'), '--watch-buffer', '0']).stderr).toContain("--watch-buffer must be a whole number >= 1, got '0'");
    const help = nodescope(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('usage: nodescope sim --socket PATH');
  });
});
