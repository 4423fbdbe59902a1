import { describe, expect, it } from 'vitest';
import { testRow } from '../../app/contract/testing/test-row';
import { Prng } from '../../app/sim/prng';
import { sortByKey } from './sort-by-key';
import { keyComparator, tieOf, type SortEntry } from './sort-rows';
import { rowKeys } from './row-keys';

/** `count` entries in tie order whose keys are drawn from `distinct` values (numbers or text), some without one. */
function entries(count: number, distinct: number, numbers: boolean, seed: number): SortEntry[] {
  const prng = new Prng(seed);
  return Array.from({ length: count }, (_, i) => {
    const row = testRow({ uid: `u${String(i).padStart(5, '0')}` });
    const n = Math.floor(prng.next() * distinct);
    const key = prng.next() < 0.05 ? null : numbers ? n - distinct / 2 : `v${n}`;
    return { row, key, tie: tieOf(row), text: '', keys: rowKeys(row) };
  });
}

describe('sortByKey', () => {
  it.each([
    [3, false],
    [40, true],
    [1024, true],
    [5000, false],
    [5000, true],
  ])('orders as a stable sort by key would, ties in tie order, rows without a key last (%i distinct values, numbers: %s)', (distinct, numbers) => {
    for (const descending of [false, true]) {
      const order = { key: 'restarts' as const, descending };
      const given = entries(3000, distinct, numbers, distinct);
      const sorted = sortByKey(given, order);
      expect(sorted).toEqual(given.slice().sort(keyComparator(order)));
      expect(sorted.at(-1)!.key).toBeNull();
    }
  });
});
