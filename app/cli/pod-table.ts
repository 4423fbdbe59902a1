/**
 * `nodescope pods` output: kubectl get pods' columns (NAMESPACE NAME READY STATUS RESTARTS AGE, and -o wide's
 * IP NODE NOMINATED NODE READINESS GATES), aligned as kubectl aligns them, one pod per line.
 */
import { ROW_FIELD_SOURCES, unselectedFields, type RowField } from '../pod/view/pod-field-sources';
import { kubectlColumns } from '../pod/view/kubectl-columns';
import { podRowFromTree } from '../pod/view/pod-row-from-tree';
import { listAt, objAt, strAt } from '../pod/view/pod-tree-access';
import type { FieldMask } from '../mask/field-mask';
import type { PodTree } from '../pod/pod-tree';
import { kubectlAge } from './kubectl-age';
import { terminalLine } from './terminal-text';

/** The table's cells and the pod fields each is computed from (a cell whose fields a mask left out is `<masked>`). */
const TABLE_FIELD_SOURCES = {
  ...ROW_FIELD_SOURCES,
  podIP: ['status.podIPs', 'status.podIP'],
  nominatedNode: ['status.nominatedNodeName'],
  readinessGates: ['spec.readinessGates'],
} as const satisfies Record<string, readonly string[]>;

export type TableField = keyof typeof TABLE_FIELD_SOURCES;

/** Which of kubectl's columns the table has: NAMESPACE unless one namespace was asked for (-n), -o wide's four more. */
export interface PodTableLayout {
  namespace: boolean;
  wide: boolean;
}

export const DEFAULT_LAYOUT: PodTableLayout = { namespace: true, wide: false };

export const podTableHeader = (layout: PodTableLayout = DEFAULT_LAYOUT): string[] => [
  ...(layout.namespace ? ['NAMESPACE'] : []),
  'NAME',
  'READY',
  'STATUS',
  'RESTARTS',
  'AGE',
  ...(layout.wide ? ['IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES'] : []),
];


/** What a cell shows when the mask left out every field it is made of: absent, never a zero. */
export const NOT_SELECTED = '<masked>';

/** The row's cells a mask leaves without data (every source field left out); none without a mask. */
export const maskedCells = (mask: FieldMask | undefined): ReadonlySet<RowField> => new Set(unselectedFields(ROW_FIELD_SOURCES, mask?.paths ?? []));

/** The same for the table's cells, -o wide's among them. */
const maskedTableCells = (mask: FieldMask | undefined): ReadonlySet<TableField> => new Set(unselectedFields(TABLE_FIELD_SOURCES, mask?.paths ?? []));

/** A pod's phase, kubectl STATUS, ready count and RESTARTS, each as `<masked>` when the mask left it out. */
export function podStatusCells(
  pod: PodTree,
  masked: { has(field: RowField): boolean },
  now = Date.now(),
): { phase: string; status: string; ready: string; restarts: string } {
  const { status, ready, total, restarts, lastRestartAt } = kubectlColumns(pod);
  // kubectl adds how long ago the last restart was when a container's last state says ("5 (3m ago)").
  const restartsText = restarts !== 0 && lastRestartAt !== null ? `${restarts} (${kubectlAge(now - Date.parse(lastRestartAt))} ago)` : String(restarts);
  return {
    phase: masked.has('status') ? NOT_SELECTED : strAt(objAt(pod.status).phase) || '<none>',
    status: masked.has('status') ? NOT_SELECTED : status,
    ready: masked.has('ready') ? NOT_SELECTED : `${ready}/${total}`,
    restarts: masked.has('restarts') ? NOT_SELECTED : restartsText,
  };
}

/** -o wide's READINESS GATES: how many of the gates' conditions are True, as "1/2"; <none> without gates. */
function readinessGates(pod: PodTree): string {
  const gates = listAt(objAt(pod.spec).readinessGates);
  if (gates.length === 0) return '<none>';
  const conditions = listAt(objAt(pod.status).conditions);
  const met = gates.filter((g) => conditions.find((c) => c.type === g.conditionType)?.status === 'True').length;
  return `${met}/${gates.length}`;
}

export function podTableRow(pod: PodTree, now: number, masked: ReadonlySet<TableField> = new Set(), layout: PodTableLayout = DEFAULT_LAYOUT): string[] {
  const row = podRowFromTree(pod);
  const status = objAt(pod.status);
  const { status: reason, ready, restarts } = podStatusCells(pod, masked, now);
  const age = masked.has('createdAt') ? NOT_SELECTED : row.createdAt ? kubectlAge(now - Date.parse(row.createdAt)) : '<unknown>';
  const cell = (field: TableField, value: string) => (masked.has(field) ? NOT_SELECTED : value);
  // kubectl shows the first of podIPs; a mask may have kept only podIP, the same address.
  const ip = strAt(listAt(status.podIPs)[0]?.ip) || row.podIP;
  return [
    ...(layout.namespace ? [cell('namespace', row.namespace)] : []),
    cell('name', row.name),
    ready,
    reason,
    restarts,
    age,
    ...(layout.wide
      ? [
          cell('podIP', ip || '<none>'),
          cell('node', row.node || '<none>'),
          cell('nominatedNode', strAt(status.nominatedNodeName) || '<none>'),
          cell('readinessGates', readinessGates(pod)),
        ]
      : []),
  ];
}

/** Columns padded to their widest cell with three spaces between, as kubectl prints. */
export function formatTable(rows: string[][]): string {
  // Cells carry pod data: escaped before measuring, so control characters show and columns still line up.
  rows = rows.map((r) => r.map(terminalLine));
  const widths = rows.reduce((w, r) => r.map((cell, i) => Math.max(w[i] ?? 0, cell.length)), [] as number[]);
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]! + 3))).join('').trimEnd()).join('\n');
}

/** The pods in kubectl's table, in the order given (pod-selection.ts sorts them): the header, then a row per pod. */
export function podTableRows(pods: readonly PodTree[], now = Date.now(), mask?: FieldMask, layout: PodTableLayout = DEFAULT_LAYOUT): string[][] {
  const masked = maskedTableCells(mask);
  return [podTableHeader(layout), ...pods.map((p) => podTableRow(p, now, masked, layout))];
}
