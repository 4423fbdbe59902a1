/**
 * The matrix as CSV and JSON, for spreadsheets and jq. CSV is long (one line per workload and source),
 * which every tool can filter and pivot; a cell a spreadsheet would run as a formula is quoted inert.
 * Browser-safe.
 */
import type { PodValue } from '../pod/pod-tree';
import { canonicalJson, type Drift } from './workload-drift';
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

export const MATRIX_CSV_HEADER = ['namespace', 'kind', 'workload', 'source', 'state', 'pods', 'ready_pods', 'phase', 'restarts', 'drift', 'drift_values'];

/**
 * A source's own value of a drifting field, for its line. Env is narrowed to the variables not set
 * alike on every source that has the container, so a cell says what differs rather than the whole env.
 */
function ownValue(d: Drift, sourceId: string): string {
  const own = d.values[sourceId]!;
  if (d.kind !== 'env') return own;
  const parsed = Object.values(d.values).map((v) => parseEnv(v));
  const mine = parseEnv(own);
  if (!mine || parsed.some((p) => !p)) return own;
  return `[${mine.filter((entry) => !parsed.every((p) => p!.includes(entry))).join(',')}]`;
}

/** An env value as its entries' canonical JSON; null when it is not one list (replicas that differ, joined by ' | '). */
function parseEnv(value: string): string[] | null {
  try {
    const list: unknown = JSON.parse(value);
    return Array.isArray(list) ? list.map((e) => canonicalJson(e as PodValue)) : null;
  } catch {
    return null;
  }
}

/**
 * A source's line lists the drifting fields it has (`kind:container`) and, as a JSON object by the same
 * names, its own value of each; `missing` only on a source the workload is missing from.
 */
function driftOfSource(drift: readonly Drift[], sourceId: string): [string, string] {
  const fields: string[] = [];
  const values: Record<string, string> = {};
  for (const d of drift) {
    if (!(sourceId in d.values)) continue;
    if (d.kind === 'missing') {
      if (d.values[sourceId] === 'missing') fields.push('missing');
      continue;
    }
    const field = `${d.kind}:${d.container}`;
    fields.push(field);
    values[field] = ownValue(d, sourceId);
  }
  return [fields.join(' '), fields.some((f) => f !== 'missing') ? JSON.stringify(values) : ''];
}

export function matrixToCsv(m: WorkloadMatrix): string {
  const lines = [MATRIX_CSV_HEADER.join(',')];
  for (const row of m.rows) {
    m.sources.forEach((source, i) => {
      const cell = row.cells[i];
      // A failed source's cells are unknown, not zero: left empty.
      const state = source.error ? 'error' : cell ? 'present' : 'absent';
      const numbers = cell ? [cell.pods, cell.readyPods, phaseText(cell), cell.restarts] : source.error ? ['', '', '', ''] : [0, 0, '', 0];
      lines.push([row.workload.namespace, row.workload.kind, row.workload.name, source.id, state, ...numbers, ...driftOfSource(row.drift, source.id)].map(csvField).join(','));
    });
  }
  return lines.join('\r\n') + '\r\n';
}

export function matrixToJson(m: WorkloadMatrix): string {
  return `${JSON.stringify({ kind: 'NodescopeWorkloadMatrix', version: 1, sources: m.sources, drifted: m.drifted, rows: m.rows.map(({ key: _key, ...row }) => row) }, null, 2)}\n`;
}
