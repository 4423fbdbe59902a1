import { describe, expect, it } from 'vitest';
import { TokenBucket } from './token-bucket';

describe('TokenBucket', () => {
  it('allows a burst, rejects beyond it, and refills at the rate', () => {
    let now = 0;
    const bucket = new TokenBucket(100, 10, () => now);
    expect(Array.from({ length: 12 }, () => bucket.take())).toEqual([...Array(10).fill(true), false, false]);
    now += 9;
    expect(bucket.take()).toBe(false);
    now += 1; // 10 ms at 100 QPS: one token
    expect(bucket.take()).toBe(true);
    expect(bucket.take()).toBe(false);
    now += 10_000; // never more than the burst
    expect(Array.from({ length: 11 }, () => bucket.take()).filter(Boolean)).toHaveLength(10);
  });

  it('rejects a limit that would never admit anything', () => {
    expect(() => new TokenBucket(0, 10)).toThrow('rate limit needs qps > 0 and burst >= 1, got qps 0, burst 10');
  });
});
