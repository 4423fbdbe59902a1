/** `nodescope pods` output: kubectl-like aligned columns, one pod per line. */
import { podRowFromTree } from '../contract/pod-row-from-tree';
import type { PodTree } from '../pod/pod-tree';
import { kubectlAge } from './kubectl-age';
import { terminalLine } from './terminal-text';

export const POD_TABLE_HEADER = ['NAMESPACE', 'NAME', 'PHASE', 'READY', 'RESTARTS', 'AGE', 'IP'];

export function podTableRow(pod: PodTree, now: number): string[] {
  const row = podRowFromTree(pod);
  const age = row.createdAt ? kubectlAge(now - Date.parse(row.createdAt)) : '<unknown>';
  return [row.namespace, row.name, row.phase || '<none>', `${row.ready}/${row.total}`, String(row.restarts), age, row.podIP || '<none>'];
}

/** Columns padded to their widest cell with three spaces between, as kubectl prints. */
export function formatTable(rows: string[][]): string {
  // Cells carry pod data: escaped before measuring, so control characters show and columns still line up.
  rows = rows.map((r) => r.map(terminalLine));
  const widths = rows.reduce((w, r) => r.map((cell, i) => Math.max(w[i] ?? 0, cell.length)), [] as number[]);
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]! + 3))).join('').trimEnd()).join('\n');
}

/** Rows sorted by namespace, then name, as `kubectl get pods -A` lists them (the API's own order is by UID). */
export function podTable(pods: PodTree[], now = Date.now()): string {
  const rows = pods.map((p) => podTableRow(p, now)).sort((a, b) => a[0]!.localeCompare(b[0]!) || a[1]!.localeCompare(b[1]!));
  return formatTable([POD_TABLE_HEADER, ...rows]);
}
