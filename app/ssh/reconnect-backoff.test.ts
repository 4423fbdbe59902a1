import { describe, expect, it } from 'vitest';
import { backoffDelayMs, DEFAULT_BACKOFF } from './reconnect-backoff';

/** A seeded source of [0, 1) (Park–Miller): the same draws every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 48_271) % 2_147_483_647;
    return (state - 1) / 2_147_483_646;
  };
}

describe('backoffDelayMs', () => {
  const none = () => 0; // the bound itself

  it('re-dials at once after a drop, then bounds the delay at 0.5 s doubling to 10 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 20].map((n) => backoffDelayMs(n, DEFAULT_BACKOFF, none))).toEqual([
      0, 500, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000,
    ]);
  });

  it('draws each delay from the whole window under its bound (full jitter), never beyond it', () => {
    expect(backoffDelayMs(3, DEFAULT_BACKOFF, () => 0.5)).toBe(1000);
    expect(backoffDelayMs(3, DEFAULT_BACKOFF, () => 0.999999)).toBe(0);
    expect(backoffDelayMs(9, DEFAULT_BACKOFF, () => 0.25)).toBe(7500);
    // A policy's own share: 20 % keeps the delay between 80 % of its bound and the bound.
    expect(backoffDelayMs(3, { ...DEFAULT_BACKOFF, jitter: 0.2 }, () => 0.999999)).toBe(1600);
    expect(backoffDelayMs(3, { ...DEFAULT_BACKOFF, jitter: 0 }, () => 0.7)).toBe(2000);
  });

  it('spreads a thousand nodes that failed together evenly over the window, not in step', () => {
    const random = seeded(26);
    for (const failures of [1, 4, 8]) {
      const bound = backoffDelayMs(failures, DEFAULT_BACKOFF, none);
      const delays = Array.from({ length: 1000 }, () => backoffDelayMs(failures, DEFAULT_BACKOFF, random));
      expect(Math.min(...delays)).toBeGreaterThanOrEqual(0);
      expect(Math.max(...delays)).toBeLessThanOrEqual(bound);
      // Ten equal slices of the window each hold about a tenth of the nodes: none holds more than 15 %
      // (±20 % jitter at the cap put every node in the last fifth).
      const slices = Array.from({ length: 10 }, () => 0);
      for (const d of delays) slices[Math.min(9, Math.floor((d / bound) * 10))]!++;
      expect(Math.max(...slices)).toBeLessThanOrEqual(150);
      expect(Math.min(...slices)).toBeGreaterThanOrEqual(50);
      const mean = delays.reduce((a, b) => a + b, 0) / delays.length;
      expect(mean / bound).toBeGreaterThan(0.45);
      expect(mean / bound).toBeLessThan(0.55);
    }
  });
});
