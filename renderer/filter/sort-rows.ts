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

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function compareBy(key: SortKey, a: PodRow, b: PodRow): number {
  switch (key) {
    case 'ready':
      return a.ready / (a.total || 1) - b.ready / (b.total || 1) || a.total - b.total;
    case 'restarts':
      return a.restarts - b.restarts;
    // Age ascending = youngest first, as in k9s; pods without a time sort last.
    case 'age':
      return (b.createdAt ?? '').localeCompare(a.createdAt ?? '');
    case 'podIP':
      return ipKey(a.podIP).localeCompare(ipKey(b.podIP));
    case 'isStatic':
      return Number(b.isStatic) - Number(a.isStatic);
    default:
      return collator.compare(a[key], b[key]);
  }
}

/** A sorted copy; ties fall back to namespace then name so the order never jitters. */
export function sortRows(rows: readonly PodRow[], order: SortOrder): PodRow[] {
  const sign = order.descending ? -1 : 1;
  return [...rows].sort(
    (a, b) => sign * compareBy(order.key, a, b) || collator.compare(a.namespace, b.namespace) || collator.compare(a.name, b.name) || a.uid.localeCompare(b.uid),
  );
}
