import { describe, expect, it } from 'vitest';
import { testRow } from '../../app/contract/testing/test-row';
import { rowKeys } from './row-keys';

describe('keys made as rows arrive', () => {
  it('reads text case-insensitively, ages youngest first and IPs by number, also past the cache of lower-cased values', () => {
    const row = testRow({ uid: 'a', namespace: 'Apps', name: 'Web-1', status: 'CrashLoopBackOff', createdAt: '2026-01-02T00:00:00Z', podIP: '10.0.0.9', ownerKind: 'ReplicaSet' });
    const expected = { namespace: 'apps', name: 'web-1', status: 'crashloopbackoff', age: -Date.UTC(2026, 0, 2), podIP: '010.000.000.009', ownerKind: 'replicaset' };
    expect(rowKeys(row)).toMatchObject(expected);
    // More distinct values than the cache holds: it starts again, and the keys stay right.
    for (let i = 0; i < 10_001; i++) expect(rowKeys(testRow({ uid: `u${i}`, status: `Init:${i}/X` })).status).toBe(`init:${i}/x`);
    expect(rowKeys(row)).toMatchObject(expected);
    expect(rowKeys(testRow({ uid: 'b', createdAt: 'not a time' })).age).toBe(Number.POSITIVE_INFINITY);
    expect(rowKeys(testRow({ uid: 'c', podIP: 'fd00::1' })).podIP).toBe('fd00::1');
  });
});
