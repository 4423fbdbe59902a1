/**
 * The matrix as CSV and JSON, for spreadsheets and jq. CSV is long (one line per workload and source),
 * which every tool can filter and pivot; a cell a spreadsheet would run as a formula is quoted inert.
 * Browser-safe.
 */
import type { MatrixCell, WorkloadMatrix } from './workload-matrix';

/** One word for the cell's phases: the phase when all pods share it, else `Running:2,Pending:1`. */
export function phaseText(cell: MatrixCell): string {
  const entries = Object.entries(cell.phases).map(([phase, n]) => [phase || '<unknown>', n] as const);
  if (entries.length === 1) return entries[0]![0];
  return entries.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([p, n]) => `${p}:${n}`).join(',');
}

/** RFC 4180 quoting; a leading = + - @ (a formula to a spreadsheet) is defused with a quote mark. */
export function csvField(value: string | number): string {
  let s = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const MATRIX_CSV_HEADER = ['namespace', 'kind', 'workload', 'source', 'state', 'pods', 'ready_pods', 'phase', 'restarts', 'drift'];

export function matrixToCsv(m: WorkloadMatrix): string {
  const lines = [MATRIX_CSV_HEADER.join(',')];
  for (const row of m.rows) {
    m.sources.forEach((source, i) => {
      const cell = row.cells[i];
      const drift = row.drift.filter((d) => source.id in d.values).map((d) => (d.container ? `${d.kind}:${d.container}` : d.kind)).join(' ');
      // A failed source's cells are unknown, not zero: left empty.
      const state = source.error ? 'error' : cell ? 'present' : 'absent';
      const numbers = cell ? [cell.pods, cell.readyPods, phaseText(cell), cell.restarts] : source.error ? ['', '', '', ''] : [0, 0, '', 0];
      lines.push([row.workload.namespace, row.workload.kind, row.workload.name, source.id, state, ...numbers, drift].map(csvField).join(','));
    });
  }
  return lines.join('\r\n') + '\r\n';
}

export function matrixToJson(m: WorkloadMatrix): string {
  return `${JSON.stringify({ kind: 'NodescopeWorkloadMatrix', version: 1, sources: m.sources, drifted: m.drifted, rows: m.rows.map(({ key: _key, ...row }) => row) }, null, 2)}\n`;
}
