import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { applyFieldMask, parseFieldMask } from '../mask/field-mask';
import { encodePod } from '../pod/encode';
import { podDigest } from './received-pod';
import type { PodObject } from '../pod/pod-tree';
import { startSimulatedKubelet, type SimulatedKubelet, type SimulatedKubeletOptions } from '../sim/kubelet-server';
import { createPrivateSocketDir } from '../ssh/private-socket-dir';
import { pollUntil } from '../testing/poll-until';
import { createKubeletClient, type KubeletClient, type KubeletClientOptions, type PodBytesHandlers } from './kubelet-client';
import { KubeletError } from './kubelet-error';
import { startPodWatch, type PodChange, type PodWatch, type WatchState } from './pod-watch';
import { divergence, eventually } from './testing/oracle';

let dir: string;
const kubelets: SimulatedKubelet[] = [];
const clients: KubeletClient[] = [];
const watches: PodWatch[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodescope-kubelet-'));
});
afterEach(async () => {
  await Promise.all(watches.splice(0).map((w) => w.close()));
  for (const c of clients.splice(0)) c.close();
  await Promise.all(kubelets.splice(0).map((k) => k.stop()));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let n = 0;
async function kubelet(options: Partial<SimulatedKubeletOptions> = {}): Promise<SimulatedKubelet> {
  n++;
  const k = await startSimulatedKubelet({
    socketPath: join(dir, `shipped-${n}.sock`),
    documentedSocketPath: join(dir, `documented-${n}.sock`),
    pods: 30,
    seed: n,
    ...options,
  });
  kubelets.push(k);
  return k;
}

function client(socketPath: string, options: Partial<KubeletClientOptions> = {}): KubeletClient {
  const c = createKubeletClient({ target: socketPath, socketPath, ...options });
  clients.push(c);
  return c;
}

function watch(c: KubeletClient, log: { changes: PodChange[]; states: WatchState[]; syncs: number } = { changes: [], states: [], syncs: 0 }, masked = false) {
  const w = startPodWatch(
    c,
    {
      synced: (_pods, changes) => {
        log.syncs++;
        log.changes.push(...changes);
      },
      change: (ch) => log.changes.push(ch),
      state: (s) => log.states.push(s),
    },
    { masked, backoff: { initialMs: 50, factor: 2, maxMs: 500, jitter: 0 } },
  );
  watches.push(w);
  return { w, log };
}

const mask = parseFieldMask('status.phase,spec.containers.image');

describe.each(['shipped', 'documented'] as const)('kubelet client, %s API shape, on a local socket', (shape) => {
  const socketOf = (k: SimulatedKubelet) => k.sockets[shape]!;

  it('finds the shape that answers (auto) and lists every pod with its exact bytes, sorted by UID', async () => {
    const k = await kubelet();
    const c = client(socketOf(k));
    expect(await c.detectApiShape()).toBe(shape);
    const list = await c.listPods();
    expect(list.api).toBe(shape);
    expect(list.pods.map((p) => p.uid)).toEqual(k.store.uids());
    for (const p of list.pods) expect(p.digest).toBe(podDigest(encodePod(k.store.get(p.uid)!)));
    expect(list.maskHonoured).toBeUndefined();
  });

  it('finds the shape for a watch without a ListPods: a GetPod of no pod answers NOT_FOUND', async () => {
    const k = await kubelet();
    const c = client(socketOf(k));
    const stream = await c.watchPods();
    expect(stream.api).toBe(shape);
    stream.cancel();
    expect(await client(socketOf(k)).detectApiShape()).toBe(shape);
    const { requests } = k.stats()[shape]!;
    expect(requests.ListPods ?? {}).toEqual({});
    expect(requests.GetPod).toEqual({ NOT_FOUND: 2 });
  });

  it('gets every pod as received with one ListPods, even before the shape is known', async () => {
    const k = await kubelet();
    const { bytes, undecodable } = await client(socketOf(k)).listPodBytes();
    expect(undecodable).toEqual([]);
    expect(bytes.map((b) => Buffer.from(b))).toEqual(k.store.uids().map((uid) => Buffer.from(encodePod(k.store.get(uid)!))));
    expect(k.stats()[shape]!.requests.ListPods).toEqual({ OK: 1 });
  });

  it('applies a field mask locally whether or not the kubelet does, and says which', async () => {
    const k = await kubelet();
    const masked = await client(socketOf(k), { mask }).listPods();
    // The shipped kubelet ignores masks; the documented one applies them.
    expect(masked.maskHonoured).toBe(shape === 'documented');
    for (const p of masked.pods) {
      expect(p.pod).toEqual(applyFieldMask(p.pod, mask));
      expect((p.pod.status as PodObject).phase).toBe((k.store.get(p.uid)!.status as PodObject).phase);
      expect(p.pod.metadata).toBeUndefined();
      expect(p.name).toBe((k.store.get(p.uid)!.metadata as PodObject).name);
    }
    const one = await client(socketOf(k), { mask }).getPod(k.store.uids()[3]!);
    expect(one.pod.pod).toEqual(masked.pods[3]!.pod);
  });

  it('gets one pod by UID, and names the next step for an unknown UID', async () => {
    const k = await kubelet();
    const c = client(socketOf(k), { api: shape });
    const uid = k.store.uids()[5]!;
    expect((await c.getPod(uid)).pod.uid).toBe(uid);
    const err = await c.getPod('no-such-uid').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KubeletError);
    expect(err).toMatchObject({ code: 'NOT_FOUND', retryable: false });
    expect((err as KubeletError).nextStep).toContain('nodescope pods');
  });

  it('gets one pod with one GetPod, even before the shape is known', async () => {
    const k = await kubelet();
    const uid = k.store.uids()[5]!;
    const one = await client(socketOf(k)).getPod(uid);
    expect([one.pod.uid, one.api]).toEqual([uid, shape]);
    const { ListPods, GetPod } = k.stats()[shape]!.requests;
    expect({ ListPods, GetPod }).toEqual({ ListPods: {}, GetPod: { OK: 1 } });
  });

  it('watches: the replay becomes the held set, then live ADDED/MODIFIED/DELETED keep it equal to the kubelet', async () => {
    const k = await kubelet();
    const { w, log } = watch(client(socketOf(k)));
    await eventually(() => log.syncs === 1, 'the first sync');
    expect(w.api()).toBe(shape);
    expect(divergence(w, k)).toEqual([]);
    log.changes.length = 0;
    k.churn.step(60);
    const gone = k.store.uids()[0]!;
    const goneName = (k.store.get(gone)!.metadata as PodObject).name;
    k.store.apply({ op: 'delete', uid: gone });
    await eventually(() => divergence(w, k).length === 0, 'the held set to follow 60 changes and a deletion');
    expect(new Set(log.changes.map((c) => c.type))).toEqual(new Set(['ADDED', 'MODIFIED', 'DELETED']));
    // The kubelet sends a deleted pod's identity only; the watch reports the pod as it last held it.
    const deleted = log.changes.find((c) => c.type === 'DELETED' && c.pod.uid === gone);
    expect(deleted?.pod.name).toBe(goneName);
    expect(deleted?.pod.pod.spec).toBeDefined();
    expect(w.state().state).toBe('live');
  });

  it('with a mask, reports a change only when the masked pod changes', async () => {
    const k = await kubelet({ churnPerSecond: 0 });
    const { w, log } = watch(client(socketOf(k), { mask: parseFieldMask('metadata.name') }), undefined, true);
    await eventually(() => log.syncs === 1, 'the first sync');
    log.changes.length = 0;
    const uid = k.store.uids()[0]!;
    const pod = structuredClone(k.store.get(uid)!);
    (pod.metadata as PodObject).labels = { changed: 'yes' };
    k.store.apply({ op: 'update', pod });
    const other = k.generator.fresh(Date.now());
    k.store.apply({ op: 'add', pod: other });
    await eventually(() => log.changes.length > 0, 'the added pod');
    await new Promise((r) => setTimeout(r, 100));
    expect(log.changes.map((c) => [c.type, c.pod.pod])).toEqual([['ADDED', { metadata: { name: (other.metadata as PodObject).name } }]]);
    expect(w.held().get(uid)!.pod).toEqual({ metadata: { name: (pod.metadata as PodObject).name } });
  });

  it('is dropped after a burst it cannot keep up with, watches again and converges', async () => {
    const k = await kubelet();
    const { w, log } = watch(client(socketOf(k)));
    await eventually(() => log.syncs === 1, 'the first sync');
    // 500 changes in one tick: far more than the kubelet's 100 queued events and the 64 KiB grpc-go holds
    // unsent (nothing reaches the wire within the tick), so the drop is certain without --strict-watch-buffer.
    k.churn.step(500);
    await eventually(() => w.resyncs() >= 1 && divergence(w, k).length === 0, 'a re-sync that matches the kubelet');
    expect(k.stats()[shape]!.watchEventsDropped).toBeGreaterThan(0);
    expect(log.states.some((s) => s.state === 'catchingUp' && s.cause.code === 'WATCH_DROPPED')).toBe(true);
  });
});

describe('a watch dropped during its first replay', () => {
  it('keeps the received count moving while the ListPods that catches up arrives, never frozen', async () => {
    // The strict buffer drops the watch the moment 100 events queue behind the replay: the pods then come
    // from a ListPods, which takes seconds to decode at this size.
    const k = await kubelet({ pods: 5000, strictWatchBuffer: true });
    const { log } = watch(client(k.sockets.shipped!));
    await eventually(() => log.states.some((s) => s.state === 'connecting' && (s.received ?? 0) > 0), 'the replay under way');
    k.churn.step(200);
    await eventually(() => log.states.some((s) => s.state === 'catchingUp'), 'the list shown');
    const firstShown = log.states.findIndex((s) => s.state === 'catchingUp');
    const received = Math.max(...log.states.slice(0, firstShown).map((s) => (s.state === 'connecting' ? (s.received ?? 0) : 0)));
    // The replay had a few pods when it was dropped (those the client had read before it ended); the
    // count went on with the list's, which takes seconds to decode at this size, before any pod was shown.
    expect(received).toBeGreaterThan(1500);
    expect(k.stats().shipped!.watchEventsDropped).toBeGreaterThan(0);
  });
});

describe('kubelet client errors and retries', () => {
  it('waits out an initializing kubelet with backoff, saying so, then lists', async () => {
    const k = await kubelet({ initializingMs: 1500 });
    const retries: string[] = [];
    const list = await client(k.sockets.shipped!, { retry: { onRetry: (e, ms) => retries.push(`${e.code} ${ms}`) } }).listPods();
    expect(list.pods).toHaveLength(30);
    expect(retries.length).toBeGreaterThan(0);
    expect(retries[0]).toMatch(/^INITIALIZING \d+$/);
  });

  it.each(['shipped', 'auto', 'documented'] as const)('shows a watch as initializing, then live (api %s)', async (api) => {
    const k = await kubelet({ initializingMs: 1500 });
    const { w, log } = watch(client(api === 'documented' ? k.sockets.documented! : k.sockets.shipped!, { api }));
    await eventually(() => w.state().state === 'live', 'live');
    // Shown while it lasts, not only after a list that waited it out silently.
    const first = (state: WatchState['state']) => log.states.findIndex((s) => s.state === state);
    expect(first('initializing')).toBeGreaterThan(-1);
    expect(first('initializing')).toBeLessThan(first('live'));
  });

  it('backs off when rate-limited and still gets every answer', async () => {
    const k = await kubelet({ rateLimit: { qps: 20, burst: 2 } });
    const retried: string[] = [];
    const c2 = client(k.sockets.shipped!, { api: 'shipped', retry: { onRetry: (e) => retried.push(e.code) } });
    const uids = k.store.uids().slice(0, 8);
    const pods = await Promise.all(uids.map((uid) => c2.getPod(uid)));
    expect(pods.map((p) => p.pod.uid)).toEqual(uids);
    expect(retried).toContain('RATE_LIMITED');
  });

  it('keeps watching through a pod the kubelet cannot marshal, and converges once it is gone', async () => {
    const k = await kubelet();
    const { w, log } = watch(client(k.sockets.shipped!));
    await eventually(() => log.syncs === 1, 'the first sync');
    const uid = 'ffffffff-0000-4000-8000-000000000000';
    k.store.apply({ op: 'add', pod: { metadata: { name: 'broken', namespace: 'default', uid, creationTimestamp: 'yesterday' } } });
    await eventually(() => log.states.some((s) => s.state === 'reconnecting' && s.cause.code === 'INTERNAL'), 'reconnecting after INTERNAL');
    k.store.apply({ op: 'delete', uid });
    await eventually(() => w.state().state === 'live' && w.resyncs() >= 1 && divergence(w, k).length === 0, 'a re-sync that matches the kubelet');
    expect(log.states.some((s) => s.state === 'error')).toBe(false);
  });

  it('says which API shape to try when the kubelet does not serve the one asked for', async () => {
    const k = await kubelet();
    const err = await client(k.sockets.documented!, { api: 'shipped' }).listPods().catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'UNIMPLEMENTED' });
    expect((err as KubeletError).nextStep).toContain('--api documented');
  });

  it('names the feature gate when the socket is missing', async () => {
    const err = await client(join(dir, 'missing.sock')).listPods().catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'SOCKET_MISSING' });
    expect((err as KubeletError).nextStep).toContain('PodsAPI feature gate');
  });

  it('converges to a restarted kubelet: the old pods are deleted, the new ones added', async () => {
    const socketPath = join(dir, 'restart.sock');
    let k = await startSimulatedKubelet({ socketPath, pods: 20, seed: 100 });
    const { w, log } = watch(client(socketPath, { api: 'shipped' }));
    await eventually(() => log.syncs === 1, 'the first sync');
    const before = new Set(w.held().keys());
    await k.stop();
    k = await startSimulatedKubelet({ socketPath, pods: 25, seed: 200 });
    kubelets.push(k);
    await eventually(() => w.resyncs() === 1 && divergence(w, k).length === 0, 'the held set to match the restarted kubelet', 15_000);
    const deleted = log.changes.filter((c) => c.type === 'DELETED').map((c) => c.pod.uid);
    expect(new Set(deleted)).toEqual(before);
  });
});

async function streamed(c: KubeletClient): Promise<Buffer[]> {
  const pods: Buffer[] = [];
  // The Pods API hands every pod on as bytes: none is named as left out by the client itself.
  await c.streamPodBytes({ pod: (b) => pods.push(Buffer.from(b)), undecodable: (err) => expect.unreachable(err.message) });
  return pods;
}
const encodedPods = (k: SimulatedKubelet) => k.store.uids().map((uid) => Buffer.from(encodePod(k.store.get(uid)!)));

describe.each(['shipped', 'documented'] as const)('streamPodBytes (pods handed on as they arrive), %s API shape', (shape) => {
  it('hands on every pod with its exact bytes in one ListPods, finding the shape on its own', async () => {
    const k = await kubelet();
    expect(await streamed(client(k.sockets[shape]!))).toEqual(encodedPods(k));
    expect(k.stats()[shape]!.requests.ListPods).toEqual({ OK: 1 });
  });
});

describe('streamPodBytes', () => {
  it('waits out an initializing kubelet, saying so, then hands on every pod once', async () => {
    const k = await kubelet({ initializingMs: 1000 });
    const retries: string[] = [];
    expect(await streamed(client(k.sockets.shipped!, { retry: { onRetry: (e) => retries.push(e.code) } }))).toEqual(encodedPods(k));
    expect(retries[0]).toBe('INITIALIZING');
  });

  it('pauses reading while the consumer asks it to, and still gets every pod', async () => {
    const k = await kubelet({ pods: 300 });
    const pods: Buffer[] = [];
    let waits = 0;
    const count = await client(k.sockets.shipped!).streamPodBytes({
      pod: (b) => pods.push(Buffer.from(b)),
      wait: () => (waits++ < 3 ? new Promise((r) => setTimeout(r, 20)) : null),
      undecodable: (err) => expect.unreachable(err.message),
    });
    expect(waits).toBeGreaterThan(3);
    expect(count).toBe(300);
    expect(pods).toEqual(encodedPods(k));
  });

  it("hands back the consumer's own failures as they are, never as a kubelet failure with the kubelet's next step", async () => {
    const k = await kubelet({ pods: 300 });
    const own = new Error('the output disk is full');
    const fail = (): never => {
      throw own;
    };
    const none = { pod: () => undefined, undecodable: () => undefined };
    const failing: Record<string, PodBytesHandlers> = {
      'a pod it cannot use': { ...none, pod: fail },
      'the size it is told': { ...none, size: fail },
      'its back-pressure': { ...none, wait: () => Promise.reject(own) },
    };
    for (const [step, handlers] of Object.entries(failing)) {
      expect(await client(k.sockets.shipped!).streamPodBytes(handlers).catch((e: unknown) => e), step).toBe(own);
    }
  });

  it('fails as the other calls do: a missing socket names the feature gate, a wrong shape names --api', async () => {
    const missing = await streamed(client(join(dir, 'missing.sock'))).catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: 'SOCKET_MISSING' });
    expect((missing as KubeletError).nextStep).toContain('PodsAPI feature gate');
    const k = await kubelet();
    const wrong = await streamed(client(k.sockets.documented!, { api: 'shipped' })).catch((e: unknown) => e);
    expect(wrong).toMatchObject({ code: 'UNIMPLEMENTED' });
    expect((wrong as KubeletError).nextStep).toContain('--api documented');
  });

  it('refuses a mask: it hands on pods exactly as the kubelet sent them', async () => {
    const k = await kubelet();
    await expect(streamed(client(k.sockets.shipped!, { mask }))).rejects.toThrowError(/with a mask, use listPods/);
  });
});

describe('closing a client while the kubelet initializes', () => {
  it('ends the wait for the kubelet at once instead of retrying on', async () => {
    const dir = createPrivateSocketDir('closing.sock');
    const sim = await startSimulatedKubelet({ socketPath: dir.socketPath, pods: 3, initializingMs: 600_000 });
    try {
      const retried: number[] = [];
      const client = createKubeletClient({ target: dir.socketPath, socketPath: dir.socketPath, retry: { maxWaitMs: 600_000, onRetry: (_e, _d, attempt) => retried.push(attempt) } });
      const listing = client.listPodBytes().then(
        () => 'listed',
        (err: Error) => err.message,
      );
      await pollUntil('a first retry', () => retried.length, (n) => n >= 1);
      client.close();
      // Without the close reaching the retry loop, this waits for the ten-minute kubelet start.
      await expect(listing).resolves.toBe('the kubelet client was closed');
    } finally {
      await sim.stop();
      dir.remove();
    }
  });
});
