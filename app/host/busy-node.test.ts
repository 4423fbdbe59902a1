import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleRequest, type NodeInfo, type NodeState, type PodRowsSnapshot, type RequestName } from '../contract';
import { podRowFromTree } from '../pod/view/pod-row-from-tree';
import { createCore, type Core } from '../core/core';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { createPrivateSocketDir, type PrivateSocketDir } from '../ssh/private-socket-dir';
import { pollUntil } from '../testing/poll-until';
import { openKubeletNodeLink } from './kubelet-node-link';

// A big, busy node with the kubelet's own 100-event watch buffer: 30,000 pods take seconds to replay,
// and 200 changes a second fill the buffer in half of one, so the kubelet drops the watch during its
// replay however fast it is read. The strict buffer cuts the replay short there (the kubelet would
// still send the rest of it first), so the app never gets a whole replay: it must still show the pods,
// and converge once it can.
let dir: PrivateSocketDir;
let sim: SimulatedKubelet;
let hub: Core;
const states: NodeState[] = [];

const call = async <T,>(name: RequestName, input: unknown): Promise<T> => {
  const result = await handleRequest(hub.handlers, name, input);
  if (!result.ok) throw new Error(result.error.message);
  return result.value as T;
};

beforeAll(async () => {
  dir = createPrivateSocketDir('busy.sock');
  sim = await startSimulatedKubelet({ socketPath: dir.socketPath, pods: 30_000, churnPerSecond: 200, seed: 12, strictWatchBuffer: true });
  hub = createCore({ openLink: (request) => openKubeletNodeLink(request, { localSocket: dir.socketPath }) });
  hub.subscribe((event) => {
    if (event.name === 'nodeState') states.push(event.payload.state);
  });
}, 240_000);
afterAll(async () => {
  await hub?.close();
  await sim?.stop();
  dir?.remove();
});

describe('a node of 30,000 pods changing 200 times a second, with the kubelet\'s 100-event buffer', () => {
  it('shows its pods while busy, says how many arrived while connecting, and converges on the kubelet\'s set', async () => {
    const node = await call<NodeInfo>('nodes.add', { kind: 'unix', socketPath: dir.socketPath });
    const rows = () => call<PodRowsSnapshot>('pods.rows', { nodeId: node.id });

    // On screen while the churn goes on: the whole node (give or take what the churn added or removed).
    const shown = await pollUntil('the pods on screen', rows, (r) => r.rows.length > 29_000, { timeoutMs: 180_000, intervalMs: 250 });
    expect(['live', 'catchingUp']).toContain(states.at(-1)?.phase);
    expect(shown.rows.length).toBeGreaterThan(29_000);
    // Progress while the first replay arrived, before any pod was shown.
    expect(states.some((s) => s.phase === 'connecting' && (s.podsReceived ?? 0) > 0)).toBe(true);
    // When the kubelet dropped the watch, the node said it was catching up rather than going blank.
    if (sim.stats().shipped!.watchEventsDropped > 0) expect(states.some((s) => s.phase === 'catchingUp')).toBe(true);

    // A few more seconds of churn, then the node goes quiet: the set converges on the kubelet's.
    await new Promise((r) => setTimeout(r, 2000));
    sim.churn.stop();
    const difference = async () => {
      const want = new Map(sim.store.list().map((p) => [podRowFromTree(p).uid, podRowFromTree(p)]));
      const got = (await rows()).rows;
      const differing = got.filter((row) => !isDeepStrictEqual(row, want.get(row.uid))).length;
      return { shown: got.length, kubelet: want.size, differing, phase: states.at(-1)?.phase };
    };
    await pollUntil('the shown rows to match the kubelet set, live', difference, (d) => d.shown === d.kubelet && d.differing === 0 && d.phase === 'live', {
      timeoutMs: 180_000,
      intervalMs: 500,
    });
  }, 420_000);
});
