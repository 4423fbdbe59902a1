import { describe, expect, it } from 'vitest';
import type { WorkloadMatrixView } from '../../app/contract/fleet';
import { driftedSources, visibleMatrix } from './matrix-view';

const cell = { pods: 1, readyPods: 1, phases: { Running: 1 }, restarts: 0, podNames: ['p'] };
const workload = (name: string) => ({ namespace: 'ns', kind: 'DaemonSet', name });
/** Five nodes; fluent-bit runs another image on n3 and is missing on n5; n4 could not be read. */
const matrix: WorkloadMatrixView = {
  sources: [{ id: 'n1' }, { id: 'n2' }, { id: 'n3' }, { id: 'n4', error: 'not live' }, { id: 'n5' }],
  drifted: 1,
  rows: [
    {
      key: 'ns/DaemonSet/fluent-bit',
      workload: workload('fluent-bit'),
      cells: [cell, cell, cell, null, null],
      drift: [
        { kind: 'image', container: 'fb', values: { n1: 'fb:2', n2: 'fb:2', n3: 'fb:1' } },
        { kind: 'missing', values: { n1: 'present', n2: 'present', n3: 'present', n5: 'missing' } },
      ],
    },
    { key: 'ns/DaemonSet/node-exporter', workload: workload('node-exporter'), cells: [cell, cell, cell, null, cell], drift: [] },
  ],
} as unknown as WorkloadMatrixView;

describe('the fleet matrix view', () => {
  it('sets apart the minority value of each drift, with the value, and the sources a workload is missing from', () => {
    expect(Object.fromEntries(driftedSources(matrix.rows[0]!))).toEqual({ n3: ['image of fb: fb:1'], n5: ['missing'] });
  });

  it('"only sources that differ" keeps the sources set apart and those not read, in their order', () => {
    const all = { query: '', driftOnly: false, differOnly: false };
    expect(visibleMatrix(matrix, all).sources).toEqual([0, 1, 2, 3, 4]);
    expect(visibleMatrix(matrix, { ...all, differOnly: true }).sources).toEqual([2, 3, 4]);
  });

  it('the sources that differ are those of the workloads shown: a filter to a workload without drift leaves only the unread', () => {
    const exporter = visibleMatrix(matrix, { query: 'exporter', driftOnly: false, differOnly: true });
    expect(exporter.rows.map((r) => r.workload.name)).toEqual(['node-exporter']);
    expect(exporter.sources).toEqual([3]);
    expect(visibleMatrix(matrix, { query: '', driftOnly: true, differOnly: false }).rows.map((r) => r.workload.name)).toEqual(['fluent-bit']);
  });
});
