import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readListPodsResponse } from '../kubelet/pods-api-messages';
import { decodePod } from '../pod/decode';
import { podToKubectlJson } from '../pod/kubectl-json';
import type { PodObject, PodTree } from '../pod/pod-tree';
import { type SimulatedKubelet, type SimulatedKubeletOptions, startSimulatedKubelet } from './kubelet-server';
import type { PodsApiShape } from './pods-api-services';
import { podsClient, type TestPodsClient, type WatchMessage } from './pods-test-client';

// The real encoder, watched: a list served from the cache encodes nothing.
const encodePodCalls = vi.hoisted(() => vi.fn());
vi.mock('../pod/encode', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../pod/encode')>();
  return {
    ...actual,
    encodePod: (...args: Parameters<typeof actual.encodePod>) => {
      encodePodCalls(...args);
      return actual.encodePod(...args);
    },
  };
});

let dir: string;
const running: SimulatedKubelet[] = [];
const clients: TestPodsClient[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodescope-sim-'));
});
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await Promise.all(running.splice(0).map((k) => k.stop()));
  await rm(dir, { recursive: true, force: true });
});

async function start(options: Partial<SimulatedKubeletOptions> = {}): Promise<SimulatedKubelet> {
  const kubelet = await startSimulatedKubelet({ socketPath: join(dir, 'pods.sock'), pods: 40, seed: 3, ...options });
  running.push(kubelet);
  return kubelet;
}

function client(kubelet: SimulatedKubelet, shape: PodsApiShape): TestPodsClient {
  const c = podsClient(kubelet.sockets[shape]!, shape);
  clients.push(c);
  return c;
}

const uidOf = (p: PodTree) => (p.metadata as PodObject).uid as string;
const json = (p: PodTree) => podToKubectlJson(p, { showManagedFields: true });
const sortedUids = (k: SimulatedKubelet) => k.store.list().map(uidOf);
const grpcError = (p: Promise<unknown>) => p.then(() => Promise.reject(new Error('expected the call to fail')), (e: grpc.ServiceError) => e);
/** The pod without the zero values Go's marshaller writes for every non-pointer field. */
function setFields(value: PodTree): PodTree {
  const out: PodObject = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined || v === null || v === '' || v === 0 || v === false) continue;
    if (Array.isArray(v)) {
      if (v.length > 0) out[k] = v;
    } else if (typeof v === 'object') {
      const inner = setFields(v as PodObject);
      if (Object.keys(inner).length > 0) out[k] = inner;
    } else out[k] = v;
  }
  return out;
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Reads messages until `done` says so; rejects with the stream's error. */
function readUntil(stream: grpc.ClientReadableStream<WatchMessage>, done: (seen: WatchMessage[]) => boolean): Promise<WatchMessage[]> {
  const seen: WatchMessage[] = [];
  return new Promise((resolve, reject) => {
    const onData = (m: WatchMessage) => {
      seen.push(m);
      if (done(seen)) {
        stream.off('data', onData);
        stream.pause();
        resolve(seen);
      }
    };
    stream.on('data', onData);
    stream.once('error', reject);
    stream.resume();
  });
}

/** Reads to the end of the stream; resolves with what arrived and the final error, if any. */
function readToEnd(stream: grpc.ClientReadableStream<WatchMessage>): Promise<{ seen: WatchMessage[]; error?: grpc.ServiceError }> {
  const seen: WatchMessage[] = [];
  return new Promise((resolve) => {
    stream.on('data', (m: WatchMessage) => seen.push(m));
    stream.once('error', (error: grpc.ServiceError) => resolve({ seen, error }));
    stream.once('end', () => resolve({ seen }));
    stream.resume();
  });
}

describe.each<PodsApiShape>(['shipped', 'documented'])('simulated kubelet, %s shape', (shape) => {
  const opts = { api: shape };

  it('lists every pod sorted by UID, exactly as the store holds them', async () => {
    const kubelet = await start(opts);
    const pods = await client(kubelet, shape).list();
    expect(pods.map(uidOf)).toEqual(sortedUids(kubelet));
    expect([...pods.map(uidOf)].sort()).toEqual(pods.map(uidOf));
    expect(pods.map(json)).toEqual(kubelet.store.list().map(json));
  });

  it('gets one pod, and answers NOT_FOUND for an unknown UID', async () => {
    const kubelet = await start(opts);
    const c = client(kubelet, shape);
    const target = kubelet.store.list()[7]!;
    expect(json(await c.get(uidOf(target)))).toBe(json(target));
    const err = await grpcError(c.get('0b0e7a5e-0000-4000-8000-000000000000'));
    expect(err.code).toBe(grpc.status.NOT_FOUND);
    // The kubelet's own text (pkg/kubelet/pods/server.go).
    expect(err.details).toBe('pod with UID 0b0e7a5e-0000-4000-8000-000000000000 not found');
  });

  it('replays every pod sorted by UID, then streams live changes', async () => {
    const kubelet = await start(opts);
    const stream = client(kubelet, shape).watch();
    const n = kubelet.store.size;
    const replay = await readUntil(stream, (seen) => seen.length === (shape === 'shipped' ? n + 1 : n));
    expect(replay.slice(0, n).map((m) => uidOf(m.pod!))).toEqual(sortedUids(kubelet));
    expect(replay.slice(0, n).map((m) => json(m.pod!))).toEqual(kubelet.store.list().map(json));
    if (shape === 'shipped') {
      expect(replay.slice(0, n).every((m) => m.type === 'ADDED')).toBe(true);
      expect(replay[n]).toEqual({ type: 'INITIAL_SYNC_COMPLETE', pod: undefined });
    }

    const [modified, added] = kubelet.churn.step(0).concat([
      kubelet.store.apply({ op: 'update', pod: { ...kubelet.store.list()[0]!, status: { ...(kubelet.store.list()[0]!.status as PodObject), phase: 'Failed' } } }),
      kubelet.store.apply({ op: 'add', pod: kubelet.generator.fresh(Date.now()) }),
    ]);
    const goneUid = sortedUids(kubelet)[5]!;
    const gone = kubelet.store.get(goneUid)!;
    kubelet.store.apply({ op: 'update', pod: { ...gone, metadata: { ...(gone.metadata as PodObject), deletionTimestamp: '2026-11-21T07:00:00Z', deletionGracePeriodSeconds: 30 } } });
    kubelet.store.apply({ op: 'delete', uid: goneUid });
    const live = await readUntil(stream, (seen) => seen.length === 4);
    expect(live.map((m) => m.type)).toEqual(shape === 'shipped' ? ['MODIFIED', 'ADDED', 'MODIFIED', 'DELETED'] : [undefined, undefined, undefined, undefined]);
    expect(json(live[0]!.pod!)).toBe(json(modified!.pod));
    expect(json(live[1]!.pod!)).toBe(json(added!.pod));
    expect((live[2]!.pod!.metadata as PodObject).deletionTimestamp).toBe('2026-11-21T07:00:00Z');
    const meta = gone.metadata as PodObject;
    if (shape === 'shipped') {
      // A DELETED event's pod carries only name, namespace and uid.
      expect(setFields(live[3]!.pod!)).toEqual({ metadata: { name: meta.name, namespace: meta.namespace, uid: meta.uid } });
    } else {
      // The documented watch marks a removed pod by identity plus deletionTimestamp, no spec or status.
      expect(setFields(live[3]!.pod!)).toEqual({
        metadata: { deletionTimestamp: '2026-11-21T07:00:00Z', name: meta.name, namespace: meta.namespace, uid: meta.uid },
      });
    }
  });

  /**
   * Starts a watcher that stops reading after its replay and one that keeps reading, then makes 1,000
   * changes in batches of 50, each once the prompt reader has everything before it: it is never more
   * than 50 behind, however busy the machine, while the paused one falls further and further back.
   */
  async function pausedAndPromptWatchers(kubelet: SimulatedKubelet) {
    const slow = client(kubelet, shape).watch();
    const fast = client(kubelet, shape).watch();
    const replayLength = shape === 'shipped' ? kubelet.store.size + 1 : kubelet.store.size;
    await readUntil(slow, (seen) => seen.length === replayLength);
    const fastReplay = await readUntil(fast, (seen) => seen.length === replayLength);
    expect(fastReplay).toHaveLength(replayLength);
    const fastSeen: WatchMessage[] = [];
    fast.on('data', (m: WatchMessage) => fastSeen.push(m));
    fast.resume();
    let changes = 0;
    for (let batch = 0; batch < 20; batch++) {
      changes += kubelet.churn.step(50).length;
      await expect.poll(() => fastSeen.length, { timeout: 10_000 }).toBe(changes);
    }
    return { slow, fastSeen, changes };
  }
  const sameEvent = (m: WatchMessage) => [m.type, m.pod && json(m.pod)];

  it('drops a watcher that stops reading as the kubelet does: after what its transport holds and 100 queued events, and only that one', async () => {
    const kubelet = await start({ ...opts, pods: 60 });
    const { slow, fastSeen, changes } = await pausedAndPromptWatchers(kubelet);
    let stats = kubelet.stats()[shape]!;
    expect(stats.watchEventsDropped).toBe(1);
    // The dropped watcher's handler still holds the events queued before the drop, waiting to send them.
    expect(stats.activeWatches).toBe(2);
    expect(stats.requests.WatchPods.RESOURCE_EXHAUSTED).toBeUndefined();

    const { seen, error } = await readToEnd(slow);
    expect(error?.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(error?.details).toBe('watch client channel closed');
    // Every change up to the drop, in order and none missing: what reached the HTTP/2 window and
    // grpc-go's write quota while it was paused, the event its handler was sending, and the 100 queued.
    expect(seen.length).toBeGreaterThan(101);
    expect(seen.length).toBeLessThan(changes);
    expect(seen.map(sameEvent)).toEqual(fastSeen.slice(0, seen.length).map(sameEvent));
    stats = kubelet.stats()[shape]!;
    expect(stats.requests.WatchPods.RESOURCE_EXHAUSTED).toBe(1);
    expect(stats.activeWatches).toBe(1);
  });

  it('with strictWatchBuffer, cuts a watcher that stops reading harder: at once, with nothing queued delivered', async () => {
    const kubelet = await start({ ...opts, pods: 60, strictWatchBuffer: true });
    const { slow, fastSeen } = await pausedAndPromptWatchers(kubelet);
    const stats = kubelet.stats()[shape]!;
    expect(stats.watchEventsDropped).toBe(1);
    expect(stats.requests.WatchPods.RESOURCE_EXHAUSTED).toBe(1);
    expect(stats.activeWatches).toBe(1);
    const { seen, error } = await readToEnd(slow);
    expect(error?.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(error?.details).toBe('watch client channel closed');
    expect(seen.length).toBeLessThan(100);
    expect(seen.map(sameEvent)).toEqual(fastSeen.slice(0, seen.length).map(sameEvent));
  });

  it('fails every call with FAILED_PRECONDITION while initializing, then serves', async () => {
    const kubelet = await start({ ...opts, initializingMs: 2000 });
    const c = client(kubelet, shape);
    for (const err of [await grpcError(c.list()), await grpcError(c.get(sortedUids(kubelet)[0]!)), (await readToEnd(c.watch())).error!]) {
      expect(err.code).toBe(grpc.status.FAILED_PRECONDITION);
      expect(err.details).toBe('Kubelet is initializing');
    }
    await expect.poll(() => c.list().then((pods) => pods.length, (e: grpc.ServiceError) => e.details), { timeout: 5000, interval: 100 }).toBe(kubelet.store.size);
    const stats = kubelet.stats()[shape]!;
    expect(stats.requests.ListPods.OK).toBe(1);
    expect(stats.requests.ListPods.FAILED_PRECONDITION).toBeGreaterThanOrEqual(1);
    expect(stats.requests.WatchPods).toEqual({ FAILED_PRECONDITION: 1 });
  });

  it('rate-limits ListPods and GetPod together: a burst, then rejection, then recovery', async () => {
    // A slow refill keeps the count exact on a busy machine; the default 100 QPS / burst 10 is below.
    const kubelet = await start({ ...opts, rateLimit: { qps: 1, burst: 10 } });
    const c = client(kubelet, shape);
    const uid = sortedUids(kubelet)[0]!;
    const results = await Promise.allSettled([...Array.from({ length: 5 }, () => c.list()), ...Array.from({ length: 10 }, () => c.get(uid))]);
    const rejected = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason as grpc.ServiceError);
    expect(results.length - rejected.length).toBe(10);
    for (const err of rejected) {
      expect(err.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
      expect(err.details).toBe('rejected by rate limit');
    }
    // Watches are not limited.
    const watch = c.watch();
    expect((await readUntil(watch, () => true)).length).toBe(1);
    watch.on('error', () => {}).cancel();
    await sleep(1100); // 1 QPS refills a token every second
    expect(json(await c.get(uid))).toBe(json(kubelet.store.get(uid)!));
    const stats = kubelet.stats()[shape]!;
    expect((stats.requests.ListPods.RESOURCE_EXHAUSTED ?? 0) + (stats.requests.GetPod.RESOURCE_EXHAUSTED ?? 0)).toBe(5);
  });

  it("limits to the kubelet's 100 QPS with a burst of 10 by default", async () => {
    const kubelet = await start(opts);
    const c = client(kubelet, shape);
    const uid = sortedUids(kubelet)[0]!;
    await c.get(uid); // connected
    await sleep(150); // bucket full again
    const results = await Promise.allSettled(Array.from({ length: 40 }, () => c.get(uid)));
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    expect(ok).toBeGreaterThanOrEqual(10);
    expect(ok).toBeLessThan(40);
    // 100 QPS refills a token every 10 ms: a pause of 50 ms (or longer, on a busy machine) is enough
    // where a slower limit would still refuse. The exact rate is token-bucket.test.ts's, on its own clock.
    await sleep(50);
    expect(json(await c.get(uid))).toBe(json(kubelet.store.get(uid)!));
  });

  it('creates the socket with mode 0600 and removes it on stop', async () => {
    const kubelet = await start(opts);
    const socket = kubelet.sockets[shape]!;
    const info = await stat(socket);
    expect(info.isSocket()).toBe(true);
    expect(info.mode & 0o777).toBe(0o600);
    // It was bound in a private staging directory and moved into place; nothing else is left behind.
    expect(await readdir(dir)).toEqual(['pods.sock']);
    await kubelet.stop();
    await expect(stat(socket)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('simulated kubelet, field masks (documented shape only)', () => {
  const mask = (text: string) => {
    const md = new grpc.Metadata();
    md.set('x-kubernetes-fieldmask', text);
    return md;
  };

  it('returns only the masked fields from list, get and watch', async () => {
    const kubelet = await start({ api: 'documented' });
    const c = client(kubelet, 'documented');
    const md = () => mask('metadata.uid, status.phase');
    const expected = (p: PodTree) => ({ metadata: { uid: uidOf(p) }, status: { phase: (p.status as PodObject).phase } });
    expect((await c.list(md())).map(setFields)).toEqual(kubelet.store.list().map(expected));
    const one = kubelet.store.list()[3]!;
    expect(setFields(await c.get(uidOf(one), md()))).toEqual(expected(one));
    const stream = c.watch(md());
    const replay = await readUntil(stream, (seen) => seen.length === kubelet.store.size);
    expect(replay.map((m) => setFields(m.pod!))).toEqual(kubelet.store.list().map(expected));
    const [event] = kubelet.churn.step(1);
    const [live] = await readUntil(stream, (seen) => seen.length === 1);
    if (event!.type === 'DELETED') expect(uidOf(live!.pod!)).toBe(event!.uid);
    else expect(setFields(live!.pod!)).toEqual(expected(event!.pod));
  });

  // More than one value cannot be sent from Node: its HTTP/2 joins repeated headers into one value.
  it('rejects a bad mask with INVALID_ARGUMENT, naming the bad path', async () => {
    const kubelet = await start({ api: 'documented' });
    const c = client(kubelet, 'documented');
    const bad = await grpcError(c.list(mask('metadata.nmae')));
    expect(bad.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(bad.details).toMatch(/field mask path "metadata.nmae"/);
    const get = await grpcError(c.get(sortedUids(kubelet)[0]!, mask('metadata.labels.app')));
    expect(get.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(get.details).toMatch(/field mask path "metadata.labels.app"/);
    const watchErr = (await readToEnd(c.watch(mask('spec.nope')))).error!;
    expect(watchErr.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(kubelet.stats().documented!.requests.ListPods).toEqual({ INVALID_ARGUMENT: 1 });
  });

  it('is ignored by the shipped shape, like the real kubelet ignores request metadata', async () => {
    const kubelet = await start({ api: 'shipped' });
    const pods = await client(kubelet, 'shipped').list(mask('metadata.nmae'));
    expect(pods.map(json)).toEqual(kubelet.store.list().map(json));
  });
});

describe('simulated kubelet, serving', () => {
  it('serves both shapes from one store at once', async () => {
    const kubelet = await start({ documentedSocketPath: join(dir, 'documented.sock') });
    const [shipped, documented] = await Promise.all([client(kubelet, 'shipped').list(), client(kubelet, 'documented').list()]);
    expect(shipped.map(json)).toEqual(documented.map(json));
    expect(Object.keys(kubelet.stats()).sort()).toEqual(['documented', 'shipped']);
  });

  it('simulates a kubelet restart: watches end with UNAVAILABLE, then it initializes again', async () => {
    const kubelet = await start();
    const c = client(kubelet, 'shipped');
    const watch = c.watch();
    await readUntil(watch, (seen) => seen.length === kubelet.store.size + 1);
    kubelet.restart(300);
    const { error } = await readToEnd(watch);
    expect(error?.code).toBe(grpc.status.UNAVAILABLE);
    expect(error?.details).toBe('kubelet restarted');
    expect((await grpcError(c.list())).details).toBe('Kubelet is initializing');
    await sleep(350);
    expect(await c.list()).toHaveLength(kubelet.store.size);
    expect(kubelet.stats().shipped!.requests.WatchPods).toEqual({ UNAVAILABLE: 1 });
  });

  it('answers INTERNAL for a pod it cannot marshal, and ends only the watches that meet it', async () => {
    const kubelet = await start();
    const c = client(kubelet, 'shipped');
    const watch = c.watch();
    await readUntil(watch, (seen) => seen.length === kubelet.store.size + 1);
    const broken = { metadata: { name: 'broken', namespace: 'default', uid: 'ffffffff-0000-4000-8000-000000000000', creationTimestamp: 'yesterday' } };
    kubelet.store.apply({ op: 'add', pod: broken });
    const { error } = await readToEnd(watch);
    expect(error?.code).toBe(grpc.status.INTERNAL);
    expect(error?.details).toMatch(/^failed to marshal pod: .*"yesterday"/);
    const get = await grpcError(c.get(uidOf(broken)));
    expect(get.code).toBe(grpc.status.INTERNAL);
    // The other pods are still served one by one.
    const other = kubelet.store.list()[0]!;
    expect(json(await c.get(uidOf(other)))).toBe(json(other));
  });

  it('matches the shipped .proto when read with @grpc/proto-loader', async () => {
    const kubelet = await start();
    const protoFile = fileURLToPath(new URL('../../proto/kubelet/pods/v1alpha1/api.proto', import.meta.url));
    const pkg = grpc.loadPackageDefinition(loadSync(protoFile, { enums: String })) as unknown as { v1alpha1: { Pods: grpc.ServiceClientConstructor } };
    const c = new pkg.v1alpha1.Pods(`unix:${kubelet.sockets.shipped}`, grpc.credentials.createInsecure(), {
      'grpc.max_receive_message_length': -1,
    }) as grpc.Client & Record<string, (...args: unknown[]) => unknown>;
    try {
      const list = await new Promise<{ pods: Buffer[] }>((res, rej) => c.ListPods!({}, (e: Error | null, r: { pods: Buffer[] }) => (e ? rej(e) : res(r))));
      expect(list.pods.map((b) => json(decodePod(b).pod))).toEqual(kubelet.store.list().map(json));
      const types: string[] = [];
      const stream = c.WatchPods!({}) as grpc.ClientReadableStream<{ type: string }>;
      await new Promise<void>((res) => {
        stream.on('data', (e: { type: string }) => {
          types.push(e.type);
          if (e.type === 'INITIAL_SYNC_COMPLETE') res();
        });
      });
      stream.on('error', () => {}).cancel();
      expect(types).toEqual([...Array(kubelet.store.size).fill('ADDED'), 'INITIAL_SYNC_COMPLETE']);
    } finally {
      c.close();
    }
  });

  // How fast that list is, is the bench's (bench/sim-list.bench.ts).
  it('lists all of 5,000 pods from encodings made in advance, encoding none at the call', async () => {
    const kubelet = await start({ pods: 5000 });
    const Client = grpc.makeGenericClientConstructor(
      {
        ListPods: {
          path: '/v1alpha1.Pods/ListPods',
          requestStream: false,
          responseStream: false,
          requestSerialize: () => Buffer.alloc(0),
          requestDeserialize: (b: Buffer) => b,
          responseSerialize: (b: Buffer) => b,
          responseDeserialize: (b: Buffer) => b,
        },
      },
      'Pods',
    );
    const raw = new Client(`unix:${kubelet.sockets.shipped}`, grpc.credentials.createInsecure(), { 'grpc.max_receive_message_length': -1 });
    const list = () =>
      new Promise<Buffer>((res, rej) => (raw as unknown as Record<string, Function>).ListPods!.call(raw, {}, (e: Error | null, b: Buffer) => (e ? rej(e) : res(b))));
    try {
      encodePodCalls.mockClear();
      const first = await list();
      const second = await list();
      expect(encodePodCalls.mock.calls.length).toBe(0);
      expect(Buffer.compare(first, second)).toBe(0);
      expect(readListPodsResponse(second)).toHaveLength(5000);
    } finally {
      raw.close();
    }
  });

  it('refuses a socket path in a missing directory, naming it and the fix', async () => {
    const missing = join(dir, 'nope', 'pods.sock');
    await expect(startSimulatedKubelet({ socketPath: missing })).rejects.toThrow(
      `the socket's directory ${join(dir, 'nope')} does not exist; create it first (mkdir -p ${join(dir, 'nope')})`,
    );
  });

  it('replaces a stale socket file but never one a live server listens on, nor a regular file', async () => {
    const path = join(dir, 'pods.sock');
    const live = createServer();
    await new Promise<void>((r) => live.listen(path, r));
    await expect(start()).rejects.toThrow(`${path} is in use by a running server`);
    await new Promise((r) => live.close(r));

    // A server killed with SIGKILL leaves its socket file behind with nobody listening.
    const crashed = spawn(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(path)}, () => console.log('up'))`]);
    await new Promise((r) => crashed.stdout.once('data', r));
    crashed.kill('SIGKILL');
    await new Promise((r) => crashed.once('exit', r));
    expect((await stat(path)).isSocket()).toBe(true);
    const kubelet = await start();
    expect(await client(kubelet, 'shipped').list()).toHaveLength(40);
    await kubelet.stop();

    await writeFile(path, 'not a socket');
    await expect(start()).rejects.toThrow(`${path} exists and is not a socket`);
  });

  it('refuses a socket path too long for a UNIX socket, saying so', async () => {
    const long = join(dir, `${'x'.repeat(120 - dir.length)}.sock`);
    await expect(start({ socketPath: long })).rejects.toThrow(/is too long \(\d+ bytes\): UNIX socket paths are limited to 107 bytes/);
  });

  it('rejects bad options with a message naming the option', async () => {
    await expect(start({ pods: -1 })).rejects.toThrow('pods must be a whole number >= 0, got -1');
    await expect(start({ api: 'documented', documentedSocketPath: join(dir, 'd.sock') })).rejects.toThrow(/with api documented, leave it out/);
    await expect(start({ documentedSocketPath: join(dir, 'pods.sock') })).rejects.toThrow(/two different socket paths/);
  });
});
