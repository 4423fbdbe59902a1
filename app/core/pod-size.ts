import type { PodValue } from '../pod/pod-tree';

/**
 * Estimated heap bytes of a decoded pod value, as V8 holds it: object and array headers, a slot per
 * key or element, strings at two bytes a character. An estimate for budgets (checked against the
 * heap by bench/pod-history.bench.ts), not an exact count.
 */
export function estimateBytes(value: PodValue | undefined): number {
  if (value === undefined || value === null || typeof value === 'boolean') return 0;
  if (typeof value === 'number') return 8;
  if (typeof value === 'bigint') return 24;
  if (typeof value === 'string') return 16 + 2 * value.length;
  if (Array.isArray(value)) {
    let bytes = 32 + 8 * value.length;
    for (const item of value) bytes += estimateBytes(item);
    return bytes;
  }
  let bytes = 56;
  for (const key in value) bytes += 16 + estimateBytes(value[key]);
  return bytes;
}

/**
 * The newer version of a pod with every subtree equal to the older version's replaced by the older
 * one's object, so consecutive versions share what did not change (a status update leaves spec and
 * metadata as they were). Returns that value and the estimated bytes now shared between the two.
 */
export function shareUnchanged(older: PodValue | undefined, newer: PodValue): { value: PodValue; shared: number } {
  if (older === undefined || older === null || newer === null || typeof newer !== 'object' || typeof older !== 'object') {
    return { value: newer, shared: 0 };
  }
  if (Array.isArray(newer) !== Array.isArray(older)) return { value: newer, shared: 0 };
  let shared = 0;
  let same = true;
  const out: PodValue = Array.isArray(newer) ? [] : {};
  const olderMap = older as Record<string, PodValue | undefined>;
  const entries: [string, PodValue | undefined][] = Array.isArray(newer) ? newer.map((v, i) => [String(i), v]) : Object.entries(newer);
  if (Array.isArray(newer) ? newer.length !== (older as PodValue[]).length : entries.length !== Object.keys(older).length) same = false;
  for (const [key, value] of entries) {
    const before = olderMap[key];
    let next: PodValue | undefined = value;
    if (value !== undefined && before !== undefined) {
      if (before === value) {
        next = before;
        shared += estimateBytes(before);
      } else if (typeof value === 'object' && value !== null) {
        const inner = shareUnchanged(before, value);
        next = inner.value;
        shared += inner.shared;
        if (next !== before) same = false;
      } else {
        same = false;
      }
    } else if (value !== before) {
      same = false;
    }
    (out as Record<string, PodValue | undefined>)[key] = next;
  }
  if (same) return { value: older, shared: estimateBytes(older) };
  return { value: out, shared };
}
