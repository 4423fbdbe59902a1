import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseFieldMask } from '../mask/field-mask';
import { encodePod } from '../pod/encode';
import { startSimulatedKubelet, type SimulatedKubelet, type SimulatedKubeletOptions } from '../sim/kubelet-server';
import { createKubeletClient, type KubeletClient, type KubeletClientOptions } from './kubelet-client';
import type { KubeletError } from './kubelet-error';
import { ListPodsResponseReader } from './list-pods-stream';
import { writeListPodsResponse } from './pods-api-messages';

let dir: string;
const kubelets: SimulatedKubelet[] = [];
const clients: KubeletClient[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodescope-list-stream-'));
});
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await Promise.all(kubelets.splice(0).map((k) => k.stop()));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

let n = 0;
async function kubelet(options: Partial<SimulatedKubeletOptions> = {}): Promise<SimulatedKubelet> {
  n++;
  const k = await startSimulatedKubelet({ socketPath: join(dir, `s-${n}.sock`), documentedSocketPath: join(dir, `d-${n}.sock`), pods: 40, seed: n, ...options });
  kubelets.push(k);
  return k;
}
function client(socketPath: string, options: Partial<KubeletClientOptions> = {}): KubeletClient {
  const c = createKubeletClient({ target: socketPath, socketPath, ...options });
  clients.push(c);
  return c;
}
async function streamed(c: KubeletClient): Promise<{ pods: Buffer[]; count: number }> {
  const pods: Buffer[] = [];
  const count = await c.streamPodBytes({ pod: (b) => pods.push(Buffer.from(b)) });
  return { pods, count };
}
const expected = (k: SimulatedKubelet) => k.store.uids().map((uid) => Buffer.from(encodePod(k.store.get(uid)!)));

/** A gRPC message: the 5-byte prefix (uncompressed, length), then the message. */
function grpcMessage(message: Uint8Array): Buffer {
  const prefix = Buffer.alloc(5);
  prefix.writeUInt32BE(message.length, 1);
  return Buffer.concat([prefix, message]);
}

describe('ListPodsResponseReader', () => {
  const pods = [Buffer.from('first pod'), Buffer.alloc(300, 7), Buffer.alloc(0), Buffer.from('last')];
  const wire = grpcMessage(writeListPodsResponse(pods));

  it.each([1, 2, 3, 7, 64, wire.length])('hands on every pod whole however the bytes are cut (chunks of %i)', (size) => {
    const got: Buffer[] = [];
    const reader = new ListPodsResponseReader((b) => got.push(Buffer.from(b)));
    for (let i = 0; i < wire.length; i += size) reader.push(wire.subarray(i, i + size));
    expect(got).toEqual(pods);
    expect(reader.complete()).toBe(true);
  });

  it('skips fields it does not know, and tells a cut-off response from a whole one', () => {
    // Field 2 (varint 150) and field 3 (bytes) around the pods: a newer kubelet's response.
    const extra = Buffer.concat([Buffer.from([0x10, 0x96, 0x01]), writeListPodsResponse(pods), Buffer.from([0x1a, 0x02, 0x61, 0x62])]);
    const got: Buffer[] = [];
    const reader = new ListPodsResponseReader((b) => got.push(Buffer.from(b)));
    const whole = grpcMessage(extra);
    reader.push(whole.subarray(0, whole.length - 3));
    expect(reader.complete()).toBe(false);
    reader.push(whole.subarray(whole.length - 3));
    expect(got).toEqual(pods);
    expect(reader.complete()).toBe(true);
  });

  it('refuses a field that claims more bytes than its message has', () => {
    const reader = new ListPodsResponseReader(() => {});
    expect(() => reader.push(grpcMessage(Buffer.from([0x0a, 0x10, 0x61])))).toThrowError(/longer than its message/);
  });
});

describe.each(['shipped', 'documented'] as const)('streamPodBytes, %s API shape', (shape) => {
  it('hands on every pod with its exact bytes in one ListPods, finding the shape on its own', async () => {
    const k = await kubelet();
    const { pods, count } = await streamed(client(k.sockets[shape]!));
    expect(count).toBe(40);
    expect(pods).toEqual(expected(k));
    expect(k.stats()[shape]!.requests.ListPods).toEqual({ OK: 1 });
  });
});

describe('streamPodBytes', () => {
  it('waits out an initializing kubelet, saying so, then hands on every pod once', async () => {
    const k = await kubelet({ initializingMs: 1000 });
    const retries: string[] = [];
    const { pods } = await streamed(client(k.sockets.shipped!, { retry: { onRetry: (e) => retries.push(e.code) } }));
    expect(pods).toEqual(expected(k));
    expect(retries[0]).toBe('INITIALIZING');
  });

  it('pauses reading while the consumer asks it to, and still gets every pod', async () => {
    const k = await kubelet({ pods: 300 });
    const pods: Buffer[] = [];
    let waits = 0;
    await client(k.sockets.shipped!).streamPodBytes({
      pod: (b) => pods.push(Buffer.from(b)),
      wait: () => (waits++ < 3 ? new Promise((r) => setTimeout(r, 20)) : null),
    });
    expect(waits).toBeGreaterThan(3);
    expect(pods).toEqual(expected(k));
  });

  it('fails as the other calls do: a missing socket names the feature gate, a wrong shape names --api', async () => {
    const missing = await streamed(client(join(dir, 'missing.sock'))).catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: 'SOCKET_MISSING' });
    expect((missing as KubeletError).hint).toContain('PodsAPI feature gate');
    const k = await kubelet();
    const wrong = await streamed(client(k.sockets.documented!, { api: 'shipped' })).catch((e: unknown) => e);
    expect(wrong).toMatchObject({ code: 'UNIMPLEMENTED' });
    expect((wrong as KubeletError).hint).toContain('--api documented');
  });

  it('refuses a mask: it hands on pods exactly as the kubelet sent them', async () => {
    const k = await kubelet();
    await expect(streamed(client(k.sockets.shipped!, { mask: parseFieldMask('status.phase') }))).rejects.toThrowError(/with a mask, use listPods/);
  });
});
