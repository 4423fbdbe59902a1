/** `nodescope pods` output: kubectl-like aligned columns, one pod per line. */
import { ROW_FIELD_SOURCES, unselectedFields, type RowField } from '../pod/view/pod-field-sources';
import { podRowFromTree } from '../pod/view/pod-row-from-tree';
import type { FieldMask } from '../mask/field-mask';
import type { PodTree } from '../pod/pod-tree';
import { kubectlAge } from './kubectl-age';
import { terminalLine } from './terminal-text';

export const POD_TABLE_HEADER = ['NAMESPACE', 'NAME', 'PHASE', 'READY', 'RESTARTS', 'AGE', 'IP'];

/** What a cell shows when the mask left out every field it is made of: absent, never a zero. */
export const NOT_SELECTED = '<masked>';

/** The row's cells a mask leaves without data (every source field left out); none without a mask. */
export const maskedCells = (mask: FieldMask | undefined): ReadonlySet<RowField> => new Set(unselectedFields(ROW_FIELD_SOURCES, mask?.paths ?? []));

/** A pod's phase, ready count and restarts, each as `<masked>` when the mask left it out. */
export function podStatusCells(pod: PodTree, masked: ReadonlySet<RowField>): { phase: string; ready: string; restarts: string } {
  const row = podRowFromTree(pod);
  return {
    phase: masked.has('status') ? NOT_SELECTED : row.phase || '<none>',
    ready: masked.has('ready') ? NOT_SELECTED : `${row.ready}/${row.total}`,
    restarts: masked.has('restarts') ? NOT_SELECTED : String(row.restarts),
  };
}

export function podTableRow(pod: PodTree, now: number, masked: ReadonlySet<RowField> = new Set()): string[] {
  const row = podRowFromTree(pod);
  const { phase, ready, restarts } = podStatusCells(pod, masked);
  const age = masked.has('createdAt') ? NOT_SELECTED : row.createdAt ? kubectlAge(now - Date.parse(row.createdAt)) : '<unknown>';
  const cell = (field: RowField, value: string) => (masked.has(field) ? NOT_SELECTED : value);
  return [cell('namespace', row.namespace), cell('name', row.name), phase, ready, restarts, age, cell('podIP', row.podIP || '<none>')];
}

/** Columns padded to their widest cell with three spaces between, as kubectl prints. */
export function formatTable(rows: string[][]): string {
  // Cells carry pod data: escaped before measuring, so control characters show and columns still line up.
  rows = rows.map((r) => r.map(terminalLine));
  const widths = rows.reduce((w, r) => r.map((cell, i) => Math.max(w[i] ?? 0, cell.length)), [] as number[]);
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]! + 3))).join('').trimEnd()).join('\n');
}

/** Rows sorted by namespace, then name, as `kubectl get pods -A` lists them (the API's own order is by UID). */
export function podTable(pods: PodTree[], now = Date.now(), mask?: FieldMask): string {
  const masked = maskedCells(mask);
  const rows = pods.map((p) => podTableRow(p, now, masked)).sort((a, b) => a[0]!.localeCompare(b[0]!) || a[1]!.localeCompare(b[1]!));
  return formatTable([POD_TABLE_HEADER, ...rows]);
}
