import { describe, expect, it } from 'vitest';
import { testRow } from '../../app/contract/testing/test-row';
import { parseFilter } from '../../app/pod/view/filter-language';
import { RowIndex } from './row-index';
import { naturalKey, sortRows, type FieldKeyOf } from './sort-rows';

/** A field column's values as use-field-sort.ts reads them: natural keys by UID, null for a pod without the field. */
const fieldKeys = (values: Record<string, string | null>): FieldKeyOf => (row) => {
  const v = values[row.uid];
  return v === undefined || v === null ? null : naturalKey(v);
};

describe('sorting by a column of any pod field', () => {
  const rows = ['a', 'b', 'c', 'd', 'e', 'f'].map((uid) => testRow({ uid, name: uid }));
  const values = { a: 'pod-10', b: 'pod-9', c: null, d: 'Pod-100', e: 'ALPHA', f: 'pod-09' };

  it('orders the values as text, case-insensitively, numbers in them by value, pods without the field last either way', () => {
    const by = (descending: boolean) => sortRows(rows, { key: 'field:spec.x', descending }, undefined, fieldKeys(values)).map((r) => r.uid);
    // pod-9 and pod-09 are the same number: the tie falls to the name.
    expect(by(false)).toEqual(['e', 'b', 'f', 'a', 'd', 'c']);
    expect(by(true)).toEqual(['d', 'a', 'b', 'f', 'e', 'c']);
    expect(['250m', '50m', '1', '1.5Gi', '128Mi'].map(naturalKey).sort()).toEqual(['1', '1.5Gi', '50m', '128Mi', '250m'].map(naturalKey));
  });

  it('sorts again in the live index when the values are read afresh, and only when sorted by a field', () => {
    const index = new RowIndex({ key: 'field:spec.x', descending: false }, parseFilter(''), rows);
    // Before the values arrive every pod is unread: tie order.
    expect(index.rows().map((r) => r.uid)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    index.setFieldKeys(fieldKeys(values));
    expect(index.rows().map((r) => r.uid)).toEqual(['e', 'b', 'f', 'a', 'd', 'c']);
    index.setFieldKeys(fieldKeys({ ...values, c: 'aaa' }));
    expect(index.rows()[0]!.uid).toBe('c');

    const byName = new RowIndex({ key: 'name', descending: true }, parseFilter(''), rows);
    const held = byName.rows();
    byName.setFieldKeys(fieldKeys(values));
    expect(byName.rows()).toBe(held);
  });
});

describe('keys kept per row', () => {
  it('a pod that changed sorts by its new values, each order as often as it is asked for', () => {
    const rows = [
      testRow({ uid: 'a', createdAt: '2026-01-01T00:00:00Z', podIP: '10.0.0.9', status: 'Running' }),
      testRow({ uid: 'b', createdAt: '2026-01-02T00:00:00Z', podIP: '10.0.0.10', status: 'Pending' }),
    ];
    const index = new RowIndex({ key: 'age', descending: false }, parseFilter(''), rows);
    const order = (key: 'age' | 'podIP' | 'status') => {
      index.setOrder({ key, descending: false });
      return index.rows().map((r) => r.uid);
    };
    expect([order('age'), order('podIP'), order('status'), order('age')]).toEqual([['b', 'a'], ['a', 'b'], ['b', 'a'], ['b', 'a']]);
    // The pod changed: a new row, with every one of those values the other way round.
    index.apply([{ ...rows[0]!, createdAt: '2026-01-03T00:00:00Z', podIP: '10.0.0.11', status: 'Completed' }], []);
    expect([order('age'), order('podIP'), order('status'), order('age')]).toEqual([['a', 'b'], ['b', 'a'], ['a', 'b'], ['a', 'b']]);
  });
});
