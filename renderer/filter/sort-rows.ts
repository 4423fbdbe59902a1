import type { PodRow } from '../../app/contract/pods';
import { summarizeProbes, type PodMetricsView } from '../../app/pod/view/pod-metrics';
import { searchText } from '../../app/pod/view/filter-language';
import { isFieldKey, type FieldColumnKey } from '../columns/field-key';
import { rowKeys, type RowKeys } from './row-keys';

export const SORT_KEYS = ['namespace', 'name', 'status', 'ready', 'restarts', 'age', 'cpu', 'memory', 'probes', 'podIP', 'node', 'ownerKind', 'isStatic'] as const;
/** Keys whose value comes from the node's metrics rather than the pod. */
type MetricKey = 'cpu' | 'memory' | 'probes';
/** Sorted biggest first on the first click, as k9s does (and restarts here). */
const DESCENDING_FIRST: readonly SortKey[] = ['restarts', 'cpu', 'memory', 'probes'];
export type SortKey = (typeof SORT_KEYS)[number];
/** A built-in column's key, or a column of any pod field (its values read from the app core: use-field-sort.ts). */
export type OrderKey = SortKey | FieldColumnKey;
export interface SortOrder {
  key: OrderKey;
  descending: boolean;
}

/** Whether a first click on the column sorts biggest first. */
export const descendingFirst = (key: OrderKey): boolean => (DESCENDING_FIRST as readonly string[]).includes(key);

/** A field column's sort value of a row: its text as naturalKey made it, null when the pod has no such field (or it is not read yet). */
export type FieldKeyOf = (row: PodRow) => string | null;

/**
 * A field's text as it sorts: case-insensitively, and numbers in it by their value (natural order, so
 * `pod-9` before `pod-10` and `250m` after `50m`): each run of digits is prefixed with its length.
 */
export function naturalKey(text: string): string {
  return text.toLowerCase().replace(/\d+/g, (digits) => {
    const n = digits.replace(/^0+(?=\d)/, '');
    return `${String(n.length).padStart(4, '0')}${n}`;
  });
}

/** A metric's sort value; null when the pod has none (it then sorts last either way). */
function metricValue(key: MetricKey, m: PodMetricsView): number | null {
  if (key === 'probes') {
    if (!('value' in m.probes)) return null;
    const s = summarizeProbes(m.probes.value);
    // Failing first, then those not known yet, then the healthy; pods without probes last.
    return s.failed + s.ok + s.unknown === 0 ? null : s.failed * 1e6 + s.unknown * 1e3 + s.ok / 1e3;
  }
  if (!('value' in m.usage)) return null;
  return (key === 'cpu' ? m.usage.value.cpuCores : m.usage.value.memoryBytes) ?? null;
}

/** The value a row sorts by under a built-in key that is not a metric. */
function sortValue(key: Exclude<SortKey, MetricKey>, row: PodRow, keys: RowKeys): string | number {
  switch (key) {
    case 'ready':
      return row.ready / (row.total || 1) + row.total / 1e6;
    case 'restarts':
      return row.restarts;
    case 'isStatic':
      return row.isStatic ? 0 : 1;
    default:
      return keys[key];
  }
}

/** Two keys of one order, numbers as numbers, text by code unit. */
export const compareValues = (a: string | number, b: string | number): number => (a < b ? -1 : a > b ? 1 : 0);

/** A pod's metrics, for the keys and filters that read them. */
export type MetricsOf = (row: PodRow) => PodMetricsView;

export function isMetricKey(key: OrderKey): key is MetricKey {
  return key === 'cpu' || key === 'memory' || key === 'probes';
}

/**
 * A row with what it sorts by, computed once: its key under an order (null: none, sorts last) and its
 * tie-breaker; and what a text filter searches in it, kept beside them so filtering reads the entry.
 */
export interface SortEntry {
  row: PodRow;
  key: string | number | null;
  tie: string;
  text: string;
  /** Its keys under the other built-in orders, ready for the next click. */
  keys: RowKeys;
}

/** What ties fall back to: namespace, name and UID. */
export const tieOf = (row: PodRow): string => `${row.namespace}\u0000${row.name}\u0000${row.uid}`;

/** What a row's sort value is read from beside the row itself: the node's metrics, the sorted field column's values. */
export interface SortLookups {
  metricsOf?: MetricsOf | undefined;
  fieldKeyOf?: FieldKeyOf | undefined;
}

function orderValue(key: OrderKey, row: PodRow, lookups: SortLookups, keys: RowKeys): string | number | null {
  if (isFieldKey(key)) return lookups.fieldKeyOf ? lookups.fieldKeyOf(row) : null;
  if (isMetricKey(key)) return lookups.metricsOf ? metricValue(key, lookups.metricsOf(row)) : null;
  return sortValue(key, row, keys);
}

/** `from`: the row's entry under another order, whose tie-breaker, text and keys stay (they do not depend on the order). */
export function sortEntry(row: PodRow, order: SortOrder, lookups: SortLookups = {}, from?: SortEntry): SortEntry {
  const keys = from?.keys ?? rowKeys(row);
  return { row, key: orderValue(order.key, row, lookups, keys), tie: from?.tie ?? tieOf(row), text: from?.text ?? searchText(row), keys };
}

/** Orders entries by their key alone; a row without a value sorts last either way. */
export function keyComparator(order: SortOrder): (a: SortEntry, b: SortEntry) => number {
  const sign = order.descending ? -1 : 1;
  return (a, b) => (a.key === null || b.key === null ? (a.key === null ? 1 : 0) - (b.key === null ? 1 : 0) : sign * compareValues(a.key, b.key));
}

/** Orders entries by their tie-breaker alone. */
export const tieComparator = (a: Pick<SortEntry, 'tie'>, b: Pick<SortEntry, 'tie'>): number => compareValues(a.tie, b.tie);

/**
 * Orders entries by key, and ties by namespace, name and UID, so the order is total (no two rows
 * compare equal) and never jitters. Entries already in tie order need only a stable sort by key
 * (JavaScript's sort is stable) to end in this order.
 */
export function entryComparator(order: SortOrder): (a: SortEntry, b: SortEntry) => number {
  const byKey = keyComparator(order);
  return (a, b) => byKey(a, b) || tieComparator(a, b);
}

/** A sorted copy. Keys are computed once per row (decorate, sort, undecorate). */
export function sortRows(rows: readonly PodRow[], order: SortOrder, metricsOf?: MetricsOf, fieldKeyOf?: FieldKeyOf): PodRow[] {
  return rows
    .map((row) => sortEntry(row, order, { metricsOf, fieldKeyOf }))
    .sort(entryComparator(order))
    .map((d) => d.row);
}
