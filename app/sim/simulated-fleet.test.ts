import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildWorkloadMatrix } from '../fleet/workload-matrix';
import { workloadKey } from '../fleet/workload-identity';
import { firstWorkloadOf } from './fleet-drift';
import { fleetNodeNames, startSimulatedFleet } from './simulated-fleet';

const dir = mkdtempSync(join(tmpdir(), 'nodescope-fleet-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a simulated fleet', () => {
  it('names nodes so they sort in order', () => {
    expect(fleetNodeNames(3, 'edge')).toEqual(['edge-01', 'edge-02', 'edge-03']);
    expect(fleetNodeNames(1000).slice(8, 10)).toEqual(['sim-node-0009', 'sim-node-0010']);
  });

  it('differs only by the known drift, however long its nodes take to start', async () => {
    // Each node starts a minute after the last, as a thousand do on a busy machine: pods named after the
    // time (a CronJob's Jobs) must still be the same workload set up the same way on every node.
    let clock = Date.parse('2026-11-27T12:00:30Z');
    const now = vi.spyOn(Date, 'now').mockImplementation(() => (clock += 60_000));
    let fleet;
    try {
      fleet = await startSimulatedFleet({ nodes: 12, socketDir: dir, pods: 60, seed: 4 });
    } finally {
      now.mockRestore();
    }
    try {
      const names = fleet.nodes.map((n) => n.nodeName);
      const matrix = buildWorkloadMatrix(fleet.nodes.map((n) => ({ id: n.nodeName, pods: n.store.list() })));
      const drift = matrix.rows.flatMap((r) => r.drift.map((d) => `${r.key} ${d.kind}`)).sort();
      const deployment = workloadKey(firstWorkloadOf(fleet.nodes[0]!.store, 'Deployment')!);
      const daemonSet = workloadKey(firstWorkloadOf(fleet.nodes[0]!.store, 'DaemonSet')!);
      expect(drift).toEqual([`${deployment} env`, `${deployment} image`, `${daemonSet} image`, `${daemonSet} missing`].sort());
      expect(fleet.drift.map((d) => [d.kind, d.nodes])).toEqual(
        expect.arrayContaining([
          ['deployment-image', [names[1]]],
          ['daemonset-missing', [names[2]]],
          ['deployment-env', [names[4]]],
          ['daemonset-image', [names[9]]],
        ]),
      );
    } finally {
      await fleet.stop();
    }
  });

  it('churns every node at the rate given, each its own changes', async () => {
    const fleet = await startSimulatedFleet({ nodes: 3, socketDir: dir, pods: 30, churnPerSecond: 100 });
    try {
      const changed = fleet.nodes.map((n) => {
        const uids: string[] = [];
        n.store.subscribe((e) => uids.push(e.uid));
        return uids;
      });
      await vi.waitFor(() => expect(Math.min(...changed.map((c) => c.length))).toBeGreaterThanOrEqual(5), { timeout: 10_000 });
      expect(fleet.nodes.map((n) => n.churn.perSecond)).toEqual([100, 100, 100]);
      // Same pods everywhere (one seed), but not the same changes.
      expect(new Set(changed.map((c) => c.slice(0, 5).join()))).toHaveLength(3);
    } finally {
      await fleet.stop();
    }
  });
});
