/**
 * Long work over a whole node (a comparison, a mask preview, the fleet matrix) run in time-boxed
 * slices: between two slices the event loop gets a turn, so the server keeps reading a watch (the
 * kubelet drops a watcher that falls behind) and answering other requests and windows. The work is a
 * generator that yields after each small step; browser-safe.
 */

export interface SliceOptions<P> {
  /** Longest stretch of work between two turns of the event loop, in ms (0: a turn after every step). */
  budgetMs?: number;
  /** Stops the work at its next turn, with the signal's reason. */
  signal?: AbortSignal;
  /** Called with the last step's value before each turn (progress). */
  onPause?: (progress: P) => void;
}

/** A turn of the event loop: a timer, so pending I/O (a socket, a request) is read before work goes on. */
const turn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** Runs `steps` to its end in slices of at most `budgetMs`; its return value is the result. */
export async function runInSlices<P, R>(steps: Iterator<P, R>, { budgetMs = 12, signal, onPause }: SliceOptions<P> = {}): Promise<R> {
  try {
    for (;;) {
      signal?.throwIfAborted();
      const until = performance.now() + budgetMs;
      let step = steps.next();
      while (!step.done && performance.now() < until) step = steps.next();
      if (step.done) return step.value;
      onPause?.(step.value);
      await turn();
    }
  } finally {
    // An abandoned generator runs its own finally blocks (none left half done).
    steps.return?.();
  }
}

/** Runs `steps` to its end without a pause (a CLI, a small set); its return value is the result. */
export function runAtOnce<R>(steps: Iterator<unknown, R>): R {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}
