// The client's one HTTP/2 connection against the simulated kubelet on a real UNIX socket: shared by calls,
// dialled again when the link under it drops, backing off after a failed dial, and leaving nothing open on close.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPodRequestMessage } from '../kubelet/pods-api-framing';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { createGrpcConnection, type GrpcConnection } from './connection';
import { Status, type GrpcStatusError } from './grpc-error';
import { serverStream } from './server-stream';
import { localSocketDialer } from './stream-dialer';
import { unaryCall } from './unary-call';

let dir: string;
let kubelet: SimulatedKubelet;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodescope-grpc-connection-'));
  kubelet = await startSimulatedKubelet({ socketPath: join(dir, 'pods.sock'), pods: 5, seed: 3 });
});
afterAll(async () => {
  await kubelet.stop();
  await rm(dir, { recursive: true, force: true });
});

/** A dialer of the kubelet's socket (or `path`) that keeps every stream it opened. */
function countingDialer(path = kubelet.sockets.shipped!) {
  const opened: Duplex[] = [];
  const dial = localSocketDialer(path);
  return { opened, dial: async () => (opened.push(await dial()), opened.at(-1)!) };
}

const getPod = (c: GrpcConnection, uid: string) =>
  unaryCall(c, '/v1alpha1.Pods/GetPod', getPodRequestMessage(uid), { timeoutMs: 10_000, maxBytes: 1 << 20 });
const failure = (p: Promise<unknown>): Promise<GrpcStatusError> => p.then(() => Promise.reject(new Error('the call succeeded')), (e: unknown) => e as GrpcStatusError);

describe('a gRPC connection over node:http2', () => {
  it('carries every call on one dialled stream, and dials again once the link under it drops', async () => {
    const d = countingDialer();
    const c = createGrpcConnection({ dial: d.dial });
    const uid = kubelet.store.uids()[0]!;
    try {
      await Promise.all([getPod(c, uid), getPod(c, uid), getPod(c, uid)]);
      expect(d.opened).toHaveLength(1);
      d.opened[0]!.destroy();
      await expect.poll(() => getPod(c, uid).then(() => true, () => false)).toBe(true);
      expect(d.opened).toHaveLength(2);
    } finally {
      c.close();
    }
  });

  it('fails calls at once with the dial failure until the backoff has passed, then dials again', async () => {
    const missing = join(dir, 'later.sock');
    const d = countingDialer(missing);
    const c = createGrpcConnection({ dial: d.dial, backoff: { initialMs: 60_000, factor: 1, maxMs: 60_000, jitter: 0 } });
    try {
      const first = await failure(getPod(c, 'x'));
      expect(first).toMatchObject({ code: Status.UNAVAILABLE });
      expect(first.details).toContain('ENOENT');
      // Within the backoff: the same failure, no second dial.
      expect(await failure(getPod(c, 'x'))).toBe(first);
    } finally {
      c.close();
    }
    const quick = createGrpcConnection({ dial: localSocketDialer(missing), backoff: { initialMs: 1, factor: 1, maxMs: 1, jitter: 0 } });
    try {
      expect(await failure(getPod(quick, 'x'))).toMatchObject({ code: Status.UNAVAILABLE });
      const other = await startSimulatedKubelet({ socketPath: missing, pods: 1, seed: 9 });
      try {
        await expect.poll(() => getPod(quick, other.store.uids()[0]!).then(() => true, () => false)).toBe(true);
      } finally {
        await other.stop();
      }
    } finally {
      quick.close();
    }
  });

  it('ends a running stream and its socket on close, and refuses calls after', async () => {
    const d = countingDialer();
    const c = createGrpcConnection({ dial: d.dial });
    const ended: (Error | null)[] = [];
    const messages: Buffer[] = [];
    serverStream(c, '/v1alpha1.Pods/WatchPods', new Uint8Array(0), { maxBytes: 1 << 20 }, { message: (m) => messages.push(m), end: (err) => ended.push(err) });
    await expect.poll(() => messages.length).toBeGreaterThan(0);
    c.close();
    await expect.poll(() => ended.length).toBe(1);
    expect(ended[0]).toMatchObject({ code: Status.UNAVAILABLE });
    await expect.poll(() => d.opened[0]!.destroyed).toBe(true);
    expect(await failure(getPod(c, 'x'))).toMatchObject({ code: Status.UNAVAILABLE });
  });

  it('gives up a connection the server takes and never answers, so a watch (no deadline) is not held forever', async () => {
    const path = join(dir, 'mute.sock');
    // Reads what comes (so it sees the client hang up) and never answers.
    const mute = createServer((socket) => socket.on('error', () => {}).resume());
    await new Promise<void>((r) => mute.listen(path, r));
    const c = createGrpcConnection({ dial: localSocketDialer(path), handshakeTimeoutMs: 200 });
    try {
      const ended: (Error | null)[] = [];
      serverStream(c, '/v1alpha1.Pods/WatchPods', new Uint8Array(0), { maxBytes: 1 << 20 }, { message: () => {}, end: (err) => ended.push(err) });
      await expect.poll(() => ended.length).toBe(1);
      expect(ended[0]).toMatchObject({ code: Status.UNAVAILABLE });
      expect(ended[0]!.message).toContain('no HTTP/2 answer within 0.2 s');
    } finally {
      c.close();
      await new Promise<void>((r) => mute.close(() => r()));
    }
  });

  it('lives through clients closed the moment a call has its answer, while the others finish', async () => {
    // On a socket node:http2 read natively, a session destroyed while a stream had ended but not yet closed
    // corrupted the heap (Node 20): the process died in malloc within a few hundred of these.
    const busy = await startSimulatedKubelet({ socketPath: join(dir, 'busy.sock'), pods: 20, seed: 4, rateLimit: { qps: 1e6, burst: 1e6 } });
    const uids = busy.store.uids();
    try {
      for (let round = 0; round < 1000; round++) {
        const c = createGrpcConnection({ dial: localSocketDialer(busy.sockets.shipped!) });
        const calls = uids.slice(0, 8).map((uid) => getPod(c, uid).finally(() => c.close()));
        const settled = await Promise.allSettled(calls);
        expect(settled.filter((s) => s.status === 'fulfilled').length).toBeGreaterThan(0);
      }
    } finally {
      await busy.stop();
    }
  }, 120_000);

  it('reads a status the server ends a call with, and its message as sent', async () => {
    const c = createGrpcConnection({ dial: localSocketDialer(kubelet.sockets.shipped!) });
    try {
      const err = await failure(getPod(c, '00000000-0000-4000-8000-000000000000'));
      expect(err.code).toBe(Status.NOT_FOUND);
      expect(err.details).toMatch(/00000000-0000-4000-8000-000000000000/);
    } finally {
      c.close();
    }
  });
});
