import type { RowField } from '../../app/pod/view/pod-field-sources';
import type { FieldColumnKey } from '../columns/field-key';
import type { OrderKey, SortKey } from '../filter/sort-rows';

/**
 * `field`: the row field a column shows, so a mask that leaves it out is marked; metrics come from beside
 * the pod. `path`: a column of a pod field (its key a FieldColumnKey), read from the pod in the app core.
 */
export interface PodColumn {
  key: SortKey | FieldColumnKey;
  path?: string;
  label: string;
  className: string;
  field?: RowField;
  /** Narrowest width in px: its header and its usual values fit. */
  min: number;
  /** Share of the width left over; 0 for a column of fixed width. */
  grow: number;
}

export const POD_COLUMNS: readonly PodColumn[] = [
  { key: 'namespace', label: 'Namespace', className: 'c-ns', field: 'namespace', min: 96, grow: 1.1 },
  { key: 'name', label: 'Name', className: 'c-name', field: 'name', min: 140, grow: 2.6 },
  { key: 'status', label: 'Status', className: 'c-status', field: 'status', min: 112, grow: 0 },
  { key: 'ready', label: 'Ready', className: 'c-ready', field: 'ready', min: 56, grow: 0 },
  { key: 'restarts', label: 'Restarts', className: 'c-num', field: 'restarts', min: 80, grow: 0 },
  { key: 'age', label: 'Age', className: 'c-age', field: 'createdAt', min: 56, grow: 0 },
  { key: 'cpu', label: 'CPU', className: 'c-cpu', min: 60, grow: 0 },
  { key: 'memory', label: 'Memory', className: 'c-mem', min: 76, grow: 0 },
  { key: 'probes', label: 'Probes', className: 'c-probes', min: 96, grow: 0 },
  { key: 'podIP', label: 'Pod IP', className: 'c-ip', field: 'podIP', min: 112, grow: 0 },
  { key: 'node', label: 'Node', className: 'c-node', field: 'node', min: 96, grow: 1 },
  { key: 'ownerKind', label: 'Owner', className: 'c-owner', field: 'owner', min: 100, grow: 0 },
  { key: 'isStatic', label: 'Static', className: 'c-static', field: 'isStatic', min: 64, grow: 0 },
];

/** Between columns and at the row's two ends (styles.css keeps .pods-head and .pod-row to these). */
export const COLUMN_GAP = 10;
export const ROW_PADDING = 14;

const METRICS: SortKey[] = ['cpu', 'memory', 'probes'];

export interface ColumnContext {
  /** Rows come from several sources: which node a pod is on is what tells rows apart. */
  manySources: boolean;
  /** No source in view gives CPU, memory or probes: those columns would say n/a on every row. */
  noMetrics: boolean;
  /** The column sorted by: its arrow must be seen, so it is never dropped. */
  sortKey: OrderKey;
  /** The columns the user chose, in their order (column-layout.ts); all built-in ones when not given. */
  chosen?: readonly PodColumn[];
}

/**
 * Which columns a narrow table gives up first, in groups dropped together. Columns with no data in view
 * go first; over one source the node is the same on every row, over several it is what tells a
 * DaemonSet's pods apart and stays; name and status always stay, the namespace goes last.
 */
function dropOrder(ctx: ColumnContext): PodColumn['key'][][] {
  const node: SortKey[][] = ctx.manySources ? [] : [['node']];
  return [
    ...(ctx.noMetrics ? [METRICS] : []),
    ['isStatic'],
    ['ownerKind'],
    ...node,
    // Columns the user added: kept over the ones no one asked for.
    (ctx.chosen ?? []).flatMap((c) => (c.path ? [c.key] : [])),
    ['podIP'],
    ['ready', 'restarts'],
    ['age'],
    ...(ctx.noMetrics ? [] : [METRICS]),
    ['namespace'],
  ];
}

const widthOf = (columns: readonly PodColumn[]) => 2 * ROW_PADDING + columns.reduce((sum, c) => sum + c.min, 0) + COLUMN_GAP * Math.max(0, columns.length - 1);

/**
 * The columns a table `width` px wide shows: all those chosen when they fit at their narrowest, else without
 * the groups of dropOrder, one at a time, until they fit. The sorted column stays while it fits beside
 * the ones always shown (else the table says what it is sorted by elsewhere). A width of 0 (not laid
 * out yet) shows all.
 */
export function shownColumns(width: number, ctx: ColumnContext): PodColumn[] {
  let shown = [...(ctx.chosen ?? POD_COLUMNS)];
  if (width <= 0) return shown;
  for (const group of dropOrder(ctx)) {
    if (widthOf(shown) <= width) break;
    const dropped = group.filter((k) => k !== ctx.sortKey);
    shown = shown.filter((c) => !dropped.includes(c.key));
  }
  const droppable = new Set(dropOrder(ctx).flat());
  if (widthOf(shown) > width && droppable.has(ctx.sortKey)) shown = shown.filter((c) => c.key !== ctx.sortKey);
  return shown;
}

/** The CSS grid-template-columns of the columns shown. */
export function gridTemplate(columns: readonly PodColumn[]): string {
  return columns.map((c) => (c.grow > 0 ? `minmax(${c.min}px, ${c.grow}fr)` : `${c.min}px`)).join(' ');
}
