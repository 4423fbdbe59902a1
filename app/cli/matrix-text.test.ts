import { describe, expect, it } from 'vitest';
import type { PodTree } from '../pod/pod-tree';
import { buildWorkloadMatrix, type MatrixInput } from '../fleet/workload-matrix';
import { workloadOf } from '../fleet/workload-identity';
import { PodGenerator } from '../sim/pod-generator';
import { matrixText } from './matrix-text';

const NOW = Date.parse('2026-11-23T10:00:00Z');

/** 40 nodes of one pool (the same workloads); a DaemonSet's pod missing on three of them. */
function fleet(): MatrixInput[] {
  return Array.from({ length: 40 }, (_, i) => {
    const id = `worker-${String(i + 1).padStart(2, '0')}`;
    const g = new PodGenerator({ seed: 3, nodeName: id });
    const pods: PodTree[] = Array.from({ length: 30 }, () => g.existing(NOW));
    return { id, pods: [3, 17, 29].includes(i + 1) ? pods.filter((p) => workloadOf(p).kind !== 'DaemonSet') : pods };
  });
}

describe('compare -o text', () => {
  const matrix = buildWorkloadMatrix(fleet());
  const daemonSet = matrix.rows.find((r) => r.workload.kind === 'DaemonSet')!;

  it('fits a terminal of 100 columns with 40 sources: sources grouped by cell, the odd ones named', () => {
    const text = matrixText(matrix, 100);
    const table = text.split('\n\n')[0]!.split('\n');
    expect(table[0]).toMatch(/CELLS OF 40 SOURCES/);
    const line = table.find((l) => l.includes(` ${daemonSet.workload.name} `))!;
    expect(line).toMatch(/^\*/);
    expect(line).toMatch(/ ×37; - ×3 \(worker-03, worker-17, worker-29\)$/);
    expect(text).toContain('grouped: ×N sources alike');
  });

  it('prints every cell when there is no terminal width (a pipe), or when it fits', () => {
    for (const text of [matrixText(matrix), matrixText(matrix, 100_000)]) {
      const header = text.split('\n')[0]!;
      expect(header).toContain('worker-01');
      expect(header).toContain('worker-40');
      expect(text).not.toContain('CELLS OF');
    }
  });

  it('lists at most four sources of a value and counts the rest', () => {
    const inputs = fleet().map((s, i) => ('pods' in s && i >= 30 ? { id: s.id, pods: s.pods.filter((p) => workloadOf(p).kind !== 'DaemonSet') } : s));
    const text = matrixText(buildWorkloadMatrix(inputs), 100);
    const line = text.split('\n').find((l) => l.includes(` ${daemonSet.workload.name} `))!;
    expect(line).toMatch(/- ×13 \(worker-03, worker-17, worker-29, worker-31, \+9 more\)$/);
  });
});
