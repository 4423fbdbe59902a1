/**
 * Delays between failed dials: 0.5 s doubling up to 10 s, each ±20 % so many windows that
 * lost the same node do not re-dial in lockstep.
 */

export interface BackoffPolicy {
  initialMs: number;
  factor: number;
  maxMs: number;
  /** Fraction of the delay added or removed at random. */
  jitter: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { initialMs: 500, factor: 2, maxMs: 10_000, jitter: 0.2 };

/** Delay before retry number `failures` (1 = after the first failure). */
export function backoffDelayMs(failures: number, policy: BackoffPolicy = DEFAULT_BACKOFF, random: () => number = Math.random): number {
  if (failures <= 0) return 0;
  const base = Math.min(policy.maxMs, policy.initialMs * policy.factor ** (failures - 1));
  const spread = base * policy.jitter * (random() * 2 - 1);
  return Math.round(Math.min(policy.maxMs, Math.max(0, base + spread)));
}
