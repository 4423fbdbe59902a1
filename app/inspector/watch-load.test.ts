import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PodDeltas } from '../contract';
import { podRowFromTree } from '../contract/pod-row-from-tree';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { createPrivateSocketDir, type PrivateSocketDir } from '../ssh/private-socket-dir';
import type { AppEvent } from './app-core';
import { openKubeletNodeLink } from './kubelet-node-link';
import type { NodeLink } from './node-link';
import { NodePods } from './node-pods';
import { PromptBroker } from './prompt-broker';

// 1,000 changes a second from a real (simulated) kubelet through the real client: the UI must get
// about one batch per frame, and the converged set must match the kubelet's exactly.
let dir: PrivateSocketDir;
let sim: SimulatedKubelet;
let link: NodeLink;
const events: AppEvent[] = [];
let pods: NodePods;
let live = false;

beforeAll(async () => {
  dir = createPrivateSocketDir('load.sock');
  // With the kubelet's default 100-event watch buffer the watch is dropped during its initial
  // replay at this rate (reported to the kubelet-client owners); this test is about what the app
  // core does with the stream, so the buffer is made large enough for the replay.
  sim = await startSimulatedKubelet({ socketPath: dir.socketPath, pods: 500, churnPerSecond: 1000, seed: 3, watchBufferLimit: 100_000 });
  const emit = (e: AppEvent) => events.push(e);
  pods = new NodePods('load', emit);
  link = openKubeletNodeLink(
    {
      nodeId: 'load',
      spec: { host: 'local', socketPath: dir.socketPath },
      prompter: new PromptBroker(emit, () => {}).prompterFor('load', { user: '', host: 'local' }),
      events: {
        state: (s) => (live = s.phase === 'live'),
        reset: (list) => pods.replaceAll(list),
        change: (type, pod) => (type === 'DELETED' ? pods.remove(pod) : pods.upsert(type, pod)),
      },
    },
    { localSocket: dir.socketPath },
  );
});
afterAll(async () => {
  await link?.close();
  pods?.close();
  await sim?.stop();
  dir?.remove();
});

describe('a node changing 1,000 times a second', () => {
  it('reaches the UI as about one batch per frame and converges on the kubelet set', async () => {
    const deadline = Date.now() + 15_000;
    while (!live && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(live).toBe(true);

    const start = events.length;
    const startedAt = Date.now();
    await new Promise((r) => setTimeout(r, 2000));
    const seconds = (Date.now() - startedAt) / 1000;
    const batches = events.slice(start).filter((e) => e.name === 'podDeltas').map((e) => e.payload as PodDeltas);
    const changes = batches.reduce((n, b) => n + b.upserts.length + b.removals.length, 0);
    expect(changes).toBeGreaterThan(500 * seconds * 0.5);
    expect(batches.length).toBeLessThanOrEqual(Math.ceil(seconds * (1000 / 16)) + 5);

    sim.churn.stop();
    const expected = () => new Map(sim.store.list().map((p) => [podRowFromTree(p).uid, podRowFromTree(p)]));
    const converged = async () => {
      const want = expected();
      const got = pods.snapshot().rows;
      // Map fields (labels) compare without regard to key order: the wire sorts them.
      return got.length === want.size && got.every((row) => isDeepStrictEqual(row, want.get(row.uid)));
    };
    const until = Date.now() + 10_000;
    while (!(await converged()) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(await converged()).toBe(true);
  }, 40_000);
});
