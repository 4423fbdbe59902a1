/**
 * Delays between failed dials and watches: up to 0.5 s doubling to 10 s, with full jitter (each delay drawn
 * at random from nothing to that bound), so a thousand nodes that lost their links at once (a bastion
 * restarting, the laptop waking) spread their re-dials over the whole window instead of coming back in step.
 */

export interface BackoffPolicy {
  initialMs: number;
  factor: number;
  maxMs: number;
  /**
   * The share of each delay drawn at random: the delay is uniform between (1 − jitter) × its bound and the
   * bound. 1 is full jitter, 0 none.
   */
  jitter: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { initialMs: 500, factor: 2, maxMs: 10_000, jitter: 1 };

/** Delay before retry number `failures` (1 = after the first failure); `random` in [0, 1), as Math.random. */
export function backoffDelayMs(failures: number, policy: BackoffPolicy = DEFAULT_BACKOFF, random: () => number = Math.random): number {
  if (failures <= 0) return 0;
  const bound = Math.min(policy.maxMs, policy.initialMs * policy.factor ** (failures - 1));
  return Math.round(bound * (1 - policy.jitter * random()));
}
