/**
 * The workload matrix for a terminal: one line per workload, one column per source (READY/PODS PHASE
 * RESTARTS, `-` where the workload has no pod, `?` where the source could not be read), a `*` on drifted
 * rows, then what drifted and where.
 */
import { phaseText } from '../fleet/matrix-export';
import type { MatrixCell, WorkloadMatrix } from '../fleet/workload-matrix';
import { formatTable } from './pod-table';
import { terminalLine } from './terminal-text';

const cellText = (cell: MatrixCell) => `${cell.readyPods}/${cell.pods} ${phaseText(cell)} ${cell.restarts}`;

export function matrixText(m: WorkloadMatrix): string {
  const header = ['', 'NAMESPACE', 'KIND', 'WORKLOAD', ...m.sources.map((s) => s.id)];
  const rows = m.rows.map((r) => [
    r.drift.length ? '*' : '',
    r.workload.namespace,
    r.workload.kind,
    r.workload.name,
    ...r.cells.map((c, i) => (c ? cellText(c) : m.sources[i]!.error ? '?' : '-')),
  ]);
  const lines = [formatTable([header, ...rows]), '', 'cells: READY-PODS/PODS PHASE RESTARTS; - no pod there; ? source not read'];
  for (const s of m.sources) if (s.error) lines.push(`? ${terminalLine(s.id)}: not read: ${terminalLine(s.error)}`);
  if (m.drifted) {
    lines.push('', `drift in ${m.drifted} workload${m.drifted === 1 ? '' : 's'}:`);
    for (const r of m.rows) {
      for (const d of r.drift) {
        lines.push(`* ${terminalLine(`${r.workload.namespace}/${r.workload.kind}/${r.workload.name}`)}: ${d.kind}${d.container ? ` of container ${terminalLine(d.container)}` : ''}`);
        for (const [source, value] of Object.entries(d.values)) lines.push(`    ${terminalLine(source)}: ${terminalLine(value)}`);
      }
    }
  } else {
    lines.push('', 'no drift');
  }
  return `${lines.join('\n')}\n`;
}
