import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeState, PodRow } from '../contract';
import type { IncomingPod } from '../core/node-pods';
import type { PodObject } from '../pod/pod-tree';
import { podRowFromTree } from '../pod/view/pod-row-from-tree';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { pollUntil } from '../testing/poll-until';
import { openKubeletNodeLink } from './kubelet-node-link';

// A node's first rows come from a ListPods made before its first watch, shown as soon as it has arrived;
// the watch's replay is then merged into them. The kubelet is quiet until the list is shown, so the list's
// pods are the kubelet's at that moment; it changes while the watch catches up, and the rows must end as
// the kubelet's pods, the deleted one gone.
let dir: string;
let sim: SimulatedKubelet;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodescope-first-rows-'));
  sim = await startSimulatedKubelet({ socketPath: join(dir, 'pods.sock'), pods: 2000, seed: 26, churnPerSecond: 0 });
}, 60_000);
afterAll(async () => {
  await sim?.stop();
  await rm(dir, { recursive: true, force: true });
});

const rowOf = (pod: IncomingPod): PodRow => pod.row!;
const kubeletRows = () => new Map(sim.store.list().map((p) => [podRowFromTree(p).uid, podRowFromTree(p)]));

describe('a node whose list arrives before its watch has caught up', () => {
  it('shows the list before Live, merges the watch into it, and ends with the kubelet\'s pods', async () => {
    const states: NodeState[] = [];
    const shown = new Map<string, PodRow>();
    /** The rows handed on before the node first said it was live, and the kubelet's pods when they were. */
    let beforeLive: { rows: Map<string, PodRow>; kubelet: Map<string, PodRow> } | undefined;
    let deleted: string | undefined;
    let changed: string | undefined;
    /** Whether each row of the changed pod handed on had the change: it must never go back once it has. */
    const changedShown: boolean[] = [];
    const showRow = (row: PodRow) => {
      shown.set(row.uid, row);
      if (row.uid === changed) changedShown.push(row.labels.changedDuringCatchUp === 'yes');
    };
    const link = openKubeletNodeLink(
      {
        nodeId: 'n1',
        spec: { kind: 'unix', socketPath: sim.sockets.shipped! },
        prompter: { hostKey: async () => 'refuse', passphrase: async () => null, keyboardInteractive: async () => null },
        events: {
          state: (s) => {
            states.push(s);
            if (s.phase === 'catchingUp' && s.watch === 'replaying' && deleted === undefined) {
              // While the watch catches up: one pod deleted, one changed, one added, each after the list.
              [deleted, changed] = sim.store.uids();
              sim.store.apply({ op: 'delete', uid: deleted! });
              const pod = structuredClone(sim.store.get(changed!)!);
              (pod.metadata as PodObject).labels = { changedDuringCatchUp: 'yes' };
              sim.store.apply({ op: 'update', pod });
              sim.store.apply({ op: 'add', pod: sim.generator.fresh(Date.now()) });
            }
          },
          reset: (pods) => {
            if (!states.some((s) => s.phase === 'live')) beforeLive ??= { rows: new Map(pods.map((p) => [rowOf(p).uid, rowOf(p)])), kubelet: kubeletRows() };
            shown.clear();
            for (const pod of pods) showRow(rowOf(pod));
          },
          change: (type, pod) => {
            if (type === 'DELETED') shown.delete(rowOf(pod).uid);
            else showRow(rowOf(pod));
          },
        },
      },
      { localSocket: sim.sockets.shipped! },
    );
    try {
      await pollUntil('the node live', () => states.some((s) => s.phase === 'live'), { timeoutMs: 60_000 });
      // Rows came before Live, from the list: exactly the kubelet's pods when it was made.
      expect(beforeLive).toBeDefined();
      expect(beforeLive!.rows.size).toBe(2000);
      expect(beforeLive!.rows).toEqual(beforeLive!.kubelet);
      // Said as a list the watch catches up on, with a count that moved toward it, never as live.
      const catchingUp = states.findIndex((s) => s.phase === 'catchingUp');
      expect(catchingUp).toBeGreaterThan(-1);
      expect(catchingUp).toBeLessThan(states.findIndex((s) => s.phase === 'live'));
      // The end state is the kubelet's: the pod deleted while catching up is gone, the change and the new pod shown.
      await pollUntil('the rows to be the kubelet\'s', () => shown.size === sim.store.size && [...kubeletRows()].every(([uid, row]) => isDeepStrictEqual(shown.get(uid), row)), { timeoutMs: 60_000 });
      expect(shown).toEqual(kubeletRows());
      expect(shown.has(deleted!)).toBe(false);
      expect(states.at(-1)?.phase).toBe('live');
      // The change, once shown, was never followed by an older value of the pod.
      expect(changedShown.slice(changedShown.indexOf(true))).not.toContain(false);
    } finally {
      await link.close();
    }
  }, 120_000);
});
