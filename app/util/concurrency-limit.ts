/**
 * Runs async tasks with at most `max` of them making progress at once. A task still unsettled after
 * `stallMs` gives its slot to the next one and keeps running: a node that hangs (SYN dropped, sshd
 * stopped) costs nothing while it waits for its own timeout, and must not hold back the healthy ones.
 * Browser-safe: no Node APIs.
 */

export interface ConcurrencyLimit {
  /** Runs `task` when a slot is free; settles as the task does. */
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Tasks holding a slot now. */
  active(): number;
  /** Tasks waiting for a slot. */
  waiting(): number;
  /** Tasks that outlived stallMs and were let go of their slot, still running. */
  stalled(): number;
}

export interface ConcurrencyLimitOptions {
  /** A task unsettled this long stops counting against the limit; default: never. */
  stallMs?: number;
}

/** How many nodes are dialled at once by default: enough to hide round trips, few enough for 2 cores and sshd's MaxStartups (10). */
export const DEFAULT_OPEN_CONCURRENCY = 8;

/** A dial still unsettled after this long hands its slot on (it keeps trying until its ConnectTimeout). */
export const DEFAULT_STALL_MS = 3_000;

export function createConcurrencyLimit(max: number, options: ConcurrencyLimitOptions = {}): ConcurrencyLimit {
  if (!(Number.isInteger(max) && max >= 1)) throw new RangeError(`concurrency limit must be a whole number >= 1, got ${max}`);
  const queue: (() => void)[] = [];
  let active = 0;
  let stalled = 0;

  const next = () => {
    while (active < max && queue.length) {
      active++;
      queue.shift()!();
    }
  };

  return {
    run<T>(task: () => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push(() => {
          let holding = true;
          const letGo = () => {
            if (!holding) return;
            holding = false;
            active--;
            next();
          };
          const timer = options.stallMs === undefined ? undefined : setTimeout(() => {
            stalled++;
            letGo();
          }, options.stallMs);
          let result: Promise<T>;
          try {
            result = Promise.resolve(task());
          } catch (err) {
            result = Promise.reject(err);
          }
          const settled = () => {
            if (timer !== undefined) clearTimeout(timer);
            if (!holding) stalled--;
            letGo();
          };
          result.then(settled, settled);
          result.then(resolve, reject);
        });
        next();
      });
    },
    active: () => active,
    waiting: () => queue.length,
    stalled: () => stalled,
  };
}
