/**
 * Runs async tasks with at most `max` of them counting against the limit at once. A task tells of its
 * progress (a node's login done, its pods arriving); one that has told nothing for `stallMs` stops counting
 * and the next task starts, while it keeps running: a node that hangs (SYN dropped, sshd stopped) costs
 * nothing while it waits for its own timeout, and must not hold back the healthy ones. A node that is merely
 * slow keeps its slot, however long it takes, so under load the number of opens in flight stays at `max`
 * instead of growing with every node that takes longer than `stallMs`.
 * Browser-safe: no Node APIs.
 */

/** Tells the limit a task moved on; cheap enough to call for every pod received. */
export type Progress = () => void;

export interface ConcurrencyLimit {
  /** Runs `task` when a slot is free, handing it its `progress`; settles as the task does. */
  run<T>(task: (progress: Progress) => Promise<T>): Promise<T>;
  /**
   * Tasks counting against the limit now. At most `max`, except just after a silent task moved on again:
   * it counts again at once (it loads the node and this machine again), and no task starts until the
   * count is below `max` once more.
   */
  active(): number;
  /** Tasks waiting for a slot. */
  waiting(): number;
  /** Tasks running that have told no progress for stallMs, and so do not count. */
  stalled(): number;
}

export interface ConcurrencyLimitOptions {
  /** A task that tells no progress this long stops counting against the limit; default: never. */
  stallMs?: number;
}

/** How many nodes are dialled at once by default: enough to hide round trips, few enough for 2 cores and sshd's MaxStartups (10). */
export const DEFAULT_OPEN_CONCURRENCY = 8;

/** A dial that shows no progress for this long hands its slot on (it keeps trying until its ConnectTimeout). */
export const DEFAULT_STALL_MS = 3_000;

export function createConcurrencyLimit(max: number, options: ConcurrencyLimitOptions = {}): ConcurrencyLimit {
  if (!(Number.isInteger(max) && max >= 1)) throw new RangeError(`concurrency limit must be a whole number >= 1, got ${max}`);
  const { stallMs } = options;
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
    run<T>(task: (progress: Progress) => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push(() => {
          let counted = true;
          let settled = false;
          const silence =
            stallMs === undefined
              ? undefined
              : watchSilence(stallMs, () => {
                  counted = false;
                  stalled++;
                  active--;
                  next();
                });
          const progress = () => {
            if (settled || !silence) return;
            silence.heard();
            if (counted) return;
            // Moving again: it counts again, even above max, rather than leave the load to grow.
            counted = true;
            stalled--;
            active++;
            silence.start();
          };
          silence?.start();
          let result: Promise<T>;
          try {
            result = Promise.resolve(task(progress));
          } catch (err) {
            result = Promise.reject(err);
          }
          const done = () => {
            settled = true;
            silence?.stop();
            if (counted) {
              active--;
              next();
            } else stalled--;
          };
          result.then(done, done);
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

/** Watches one task's silence while it counts: `onSilent` once it has told nothing for `stallMs`. */
function watchSilence(stallMs: number, onSilent: () => void) {
  let heardAt = Date.now();
  let dueAt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (ms: number) => {
    dueAt = Date.now() + ms;
    timer = setTimeout(check, ms);
  };
  const check = () => {
    const now = Date.now();
    // A check that runs late found this process busy (a thousand nodes' lists decoding), not the task
    // silent: what the task received meanwhile is read after the timers, so it is given stallMs more.
    if (now - dueAt > stallMs / 2) return arm(stallMs);
    const quietMs = now - heardAt;
    if (quietMs < stallMs) return arm(stallMs - quietMs);
    timer = undefined;
    onSilent();
  };
  return {
    heard: () => {
      heardAt = Date.now();
    },
    /** Watches from now (again, after the task moved on from a silence). */
    start: () => {
      if (timer === undefined) arm(stallMs);
    },
    stop: () => {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
