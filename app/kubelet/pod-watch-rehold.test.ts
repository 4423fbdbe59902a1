// A watch whose holding changes what it keeps of each pod (a node switching to rows only and back,
// app/host/kubelet-node-link.ts): the pods held are held again in place, without a change reported, and a
// resync after a reconnect takes the held pods as the holding keeps them now. A simulated kubelet on a real socket.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { pollUntil } from '../testing/poll-until';
import { createKubeletClient, type KubeletClient } from './kubelet-client';
import { startPodWatch, type PodChange, type PodHolding, type PodWatch } from './pod-watch';
import type { HeldPod, ReceivedPod } from './received-pod';

/** Whole: the received pod, tree and all; slim: its identity and digest only. */
type Held = ReceivedPod | (HeldPod & { slim: true });
const isSlim = (pod: Held): boolean => 'slim' in pod;

let dir: string;
let kubelet: SimulatedKubelet;
let client: KubeletClient;
let watch: PodWatch<Held>;
let slim = false;
const resets: { pods: Held[]; changes: PodChange<Held>[] }[] = [];
const changes: PodChange<Held>[] = [];

const holding: PodHolding<Held> = {
  keep: (pod) => (slim ? { uid: pod.uid, namespace: pod.namespace, name: pod.name, digest: pod.digest, tombstone: pod.tombstone, slim: true } : pod),
  tree: (pod) => ('pod' in pod ? pod.pod : { digest: pod.digest }),
  again: (pod) => (slim ? (isSlim(pod) ? pod : holding.keep(pod as ReceivedPod, new Uint8Array())) : isSlim(pod) ? undefined : pod),
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodescope-rehold-'));
  const socketPath = join(dir, 'kubelet.sock');
  kubelet = await startSimulatedKubelet({ socketPath, pods: 8, seed: 5 });
  client = createKubeletClient({ target: socketPath, socketPath });
  watch = startPodWatch(client, { synced: (pods, c) => resets.push({ pods, changes: c }), change: (c) => changes.push(c) }, { holding, backoff: { initialMs: 20, factor: 2, maxMs: 200, jitter: 0 } });
  await pollUntil('the first sync', () => resets.length === 1);
});
afterAll(async () => {
  await watch?.close();
  client?.close();
  await kubelet?.stop();
  await rm(dir, { recursive: true, force: true });
});

const held = () => [...watch.held().values()];
const digests = () => held().map((p) => `${p.uid}:${p.digest}`).sort();

describe('a watch whose holding changes', () => {
  it('holds every pod again in place, reporting no change; pods read again replace those of the same version', async () => {
    const before = digests();
    expect(held().every((p) => !isSlim(p))).toBe(true);
    slim = true;
    expect(watch.rehold()).toHaveLength(before.length);
    expect(held().every(isSlim)).toBe(true);
    expect(digests()).toEqual(before);

    slim = false;
    // Without the pods' bytes nothing changes until they are read again.
    expect(watch.rehold()).toEqual([]);
    const { pods } = await client.listPods();
    expect(watch.rehold(pods)).toHaveLength(before.length);
    expect(held().every((p) => !isSlim(p))).toBe(true);
    expect(digests()).toEqual(before);
    expect(changes).toEqual([]);
  });

  it('a resync after a reconnect takes the held pods as the holding keeps them now, either way, with no change', async () => {
    const before = digests();
    slim = true;
    kubelet.restart(0);
    await pollUntil('a resync holding slim pods', () => resets.length === 2);
    expect(held().every(isSlim)).toBe(true);

    slim = false;
    kubelet.restart(0);
    await pollUntil('a resync holding whole pods', () => resets.length === 3);
    expect(held().every((p) => !isSlim(p))).toBe(true);
    expect(digests()).toEqual(before);
    expect(resets.slice(1).flatMap((r) => r.changes)).toEqual([]);
  });
});
