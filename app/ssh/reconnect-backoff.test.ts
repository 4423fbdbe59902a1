import { describe, expect, it } from 'vitest';
import { backoffDelayMs, DEFAULT_BACKOFF } from './reconnect-backoff';

describe('backoffDelayMs', () => {
  const mid = () => 0.5; // no jitter

  it('re-dials at once after a drop, then doubles from 0.5 s and stops at 10 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 20].map((n) => backoffDelayMs(n, DEFAULT_BACKOFF, mid))).toEqual([
      0, 500, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000,
    ]);
  });

  it('spreads each delay by at most ±20 % and never beyond the cap', () => {
    expect(backoffDelayMs(3, DEFAULT_BACKOFF, () => 0)).toBe(1600);
    expect(backoffDelayMs(3, DEFAULT_BACKOFF, () => 0.999999)).toBe(2400);
    expect(backoffDelayMs(9, DEFAULT_BACKOFF, () => 0.999999)).toBe(10_000);
  });
});
