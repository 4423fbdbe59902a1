import { describe, expect, it } from 'vitest';
import { testRow } from '../../app/contract/testing/test-row';
import { SharedStrings } from './shared-strings';

describe('SharedStrings', () => {
  it('keeps every value of a row and the row itself', () => {
    const strings = new SharedStrings();
    const row = testRow({ uid: 'a', namespace: 'kube-system', phase: 'Pending', status: 'Init:0/1', node: 'n1', ownerKind: 'Job', ownerName: 'backup' });
    const before = structuredClone(row);
    expect(strings.share(row)).toBe(row);
    expect(row).toEqual(before);
    const other = testRow({ uid: 'b', namespace: ['kube', 'system'].join('-') });
    expect(strings.share(other)).toEqual({ ...testRow({ uid: 'b' }), namespace: 'kube-system' });
  });

  it('keeps values right once more distinct ones came than it holds', () => {
    const strings = new SharedStrings();
    const rows = Array.from({ length: 60_000 }, (_, i) => testRow({ uid: `p${i}`, ownerName: `owner-${i}` }));
    for (const row of rows) strings.share(row);
    expect(rows.every((row, i) => row.ownerName === `owner-${i}` && row.namespace === 'default')).toBe(true);
  });
});
