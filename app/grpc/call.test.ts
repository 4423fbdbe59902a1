// One gRPC call on a connection whose stream is still being dialled, as the OpenSSH transport's is (a socket the
// master forwards, handed on before it has connected).
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { getPodRequestMessage } from '../kubelet/pods-api-framing';
import { startSimulatedKubelet } from '../sim/kubelet-server';
import { startCall } from './call';
import { createGrpcConnection } from './connection';
import { Status } from './grpc-error';
import { localSocketDialer } from './stream-dialer';
import { unaryCall } from './unary-call';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodescope-grpc-call-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('lets a call cancelled while its connection is dialled go quietly when the dial then fails', async () => {
  const thrown: unknown[] = [];
  const onUncaught = (err: unknown) => thrown.push(err);
  process.on('uncaughtException', onUncaught);
  // Nothing listens there: the socket fails (ENOENT) only once HTTP/2 has taken it and the call has its stream.
  const c = createGrpcConnection({ dial: async () => connect(join(dir, 'nothing.sock')) });
  try {
    const ends: (Error | null)[] = [];
    const call = startCall(c, '/v1alpha1.Pods/ListPods', new Uint8Array(0), {}, { data: () => {}, end: (err) => ends.push(err) });
    call.cancel();
    expect(ends).toEqual([expect.objectContaining({ code: Status.CANCELLED })]);
    // A call after it sees the dial's failure: by then the cancelled call's stream has met it too.
    const after: (Error | null)[] = [];
    startCall(c, '/v1alpha1.Pods/ListPods', new Uint8Array(0), {}, { data: () => {}, end: (err) => after.push(err) });
    await expect.poll(() => after).toEqual([expect.objectContaining({ code: Status.UNAVAILABLE })]);
    await new Promise((r) => setImmediate(r));
    expect(thrown).toEqual([]);
  } finally {
    c.close();
    process.off('uncaughtException', onUncaught);
  }
});

it('fails a call whose connection closes while its paused reader has part of an OK answer unread', async () => {
  const kubelet = await startSimulatedKubelet({ socketPath: join(dir, 'pods.sock'), pods: 60, seed: 2 });
  const c = createGrpcConnection({ dial: localSocketDialer(kubelet.sockets.shipped!) });
  try {
    const ends: (Error | null)[] = [];
    let chunks = 0;
    // Reads one chunk of the answer, then waits (a slow stdout): the rest stays unread.
    const call = startCall(c, '/v1alpha1.Pods/ListPods', new Uint8Array(0), {}, { data: () => void (chunks++ === 0 && call.pause()), end: (err) => ends.push(err) });
    await expect.poll(() => chunks).toBe(1);
    // The server sent the list's end (its OK) before this later call's answer, on the same connection.
    await unaryCall(c, '/v1alpha1.Pods/GetPod', getPodRequestMessage(kubelet.store.uids()[0]!), { timeoutMs: 10_000, maxBytes: 1 << 20 });
    c.close();
    await expect.poll(() => ends.length).toBe(1);
    expect(ends[0]).toMatchObject({ code: Status.UNAVAILABLE });
  } finally {
    c.close();
    await kubelet.stop();
  }
});
