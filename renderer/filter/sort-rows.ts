import type { PodRow } from '../../app/contract/pods';

export const SORT_KEYS = ['namespace', 'name', 'status', 'ready', 'restarts', 'age', 'podIP', 'node', 'ownerKind', 'isStatic'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export interface SortOrder {
  key: SortKey;
  descending: boolean;
}

/** Dotted IPv4 compares by number so 10.0.0.9 comes before 10.0.0.10; IPv6 and '' by text. */
function ipKey(ip: string): string {
  const parts = ip.split('.');
  return parts.length === 4 && parts.every((p) => /^\d+$/.test(p)) ? parts.map((p) => p.padStart(3, '0')).join('.') : ip;
}

/** The value a row sorts by: numbers compare as numbers, text case-insensitively, like kubectl --sort-by. */
function sortValue(key: SortKey, row: PodRow): string | number {
  switch (key) {
    case 'ready':
      return row.ready / (row.total || 1) + row.total / 1e6;
    case 'restarts':
      return row.restarts;
    // Age ascending = youngest first, as in k9s; pods without a time sort last.
    case 'age': {
      // A time that does not parse sorts as none: NaN would compare equal to everything.
      const time = row.createdAt ? Date.parse(row.createdAt) : Number.NaN;
      return Number.isNaN(time) ? Number.POSITIVE_INFINITY : -time;
    }
    case 'podIP':
      return ipKey(row.podIP);
    case 'isStatic':
      return row.isStatic ? 0 : 1;
    default:
      return row[key].toLowerCase();
  }
}

const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);

/** A row with what it sorts by, computed once: its key under an order and its tie-breaker. */
export interface SortEntry {
  row: PodRow;
  key: string | number;
  tie: string;
}

export function sortEntry(row: PodRow, order: SortOrder): SortEntry {
  return { row, key: sortValue(order.key, row), tie: `${row.namespace}\u0000${row.name}\u0000${row.uid}` };
}

/**
 * Orders entries; ties fall back to namespace, name and UID, so the order is total (no two rows
 * compare equal) and never jitters.
 */
export function entryComparator(order: SortOrder): (a: SortEntry, b: SortEntry) => number {
  const sign = order.descending ? -1 : 1;
  return (a, b) => sign * cmp(a.key, b.key) || cmp(a.tie, b.tie);
}

/** A sorted copy. Keys are computed once per row (decorate, sort, undecorate). */
export function sortRows(rows: readonly PodRow[], order: SortOrder): PodRow[] {
  return rows
    .map((row) => sortEntry(row, order))
    .sort(entryComparator(order))
    .map((d) => d.row);
}
