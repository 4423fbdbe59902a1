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

/** Names of sources listed for one cell value before the rest are counted. */
const NAMES_SHOWN = 4;

/**
 * `width`: the terminal's columns. A matrix wider than that (many sources) is printed grouped instead: one
 * line per workload, its sources grouped by identical cell, the most common first with its count and the
 * others naming their sources, so 100 nodes fit a terminal and the odd ones out stand out. Without a
 * width (output to a pipe or file) every cell is printed, for scripts.
 */
export function matrixText(m: WorkloadMatrix, width?: number): string {
  const cells = (r: WorkloadMatrix['rows'][number]) => r.cells.map((c, i) => (c ? cellText(c) : m.sources[i]!.error ? '?' : '-'));
  const header = ['', 'NAMESPACE', 'KIND', 'WORKLOAD', ...m.sources.map((s) => s.id)];
  const rows = m.rows.map((r) => [r.drift.length ? '*' : '', r.workload.namespace, r.workload.kind, r.workload.name, ...cells(r)]);
  let table = formatTable([header, ...rows]);
  const widest = Math.max(...table.split('\n').map((l) => l.length));
  const grouped = width !== undefined && widest > width;
  if (grouped) {
    const groupedRows = m.rows.map((r) => [r.drift.length ? '*' : '', r.workload.namespace, r.workload.kind, r.workload.name, groupedCells(cells(r), m.sources.map((s) => s.id))]);
    table = formatTable([['', 'NAMESPACE', 'KIND', 'WORKLOAD', `CELLS OF ${m.sources.length} SOURCES`], ...groupedRows]);
  }
  const legend = 'cells: READY-PODS/PODS PHASE RESTARTS; - no pod there; ? source not read';
  const lines = [table, '', grouped ? `${legend}; grouped: ×N sources alike, the others named (every cell: -o csv, or a wider terminal)` : legend];
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

/** `1/1 Running 0 ×57; - ×3 (w-03, w-53, w-103)`: the most common value first, the rarer ones with their sources. */
function groupedCells(values: readonly string[], sources: readonly string[]): string {
  const groups = new Map<string, string[]>();
  values.forEach((v, i) => groups.set(v, [...(groups.get(v) ?? []), sources[i]!]));
  const ordered = [...groups.entries()].sort((a, b) => b[1].length - a[1].length);
  return ordered
    .map(([value, names], i) => {
      const count = `${value} ×${names.length}`;
      if (i === 0) return count;
      const shown = names.slice(0, NAMES_SHOWN).map(terminalLine).join(', ');
      return `${count} (${shown}${names.length > NAMES_SHOWN ? `, +${names.length - NAMES_SHOWN} more` : ''})`;
    })
    .join('; ');
}
