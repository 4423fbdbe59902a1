import { describe, expect, it } from 'vitest';
import { StringPool } from './string-pool';

describe('StringPool', () => {
  it('hands back every value unchanged, and holds no more values than its limit', () => {
    const pool = new StringPool(100);
    for (let i = 0; i < 1000; i++) {
      const value = `ns-${i % 250}`;
      expect(pool.get(value)).toBe(value);
      expect(pool.size).toBeLessThanOrEqual(100);
    }
    expect(pool.get('')).toBe('');
  });
});
