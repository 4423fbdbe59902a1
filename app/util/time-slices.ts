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

/**
 * Work waiting for its next slice, in turn. One slice runs per turn of the event loop, whoever's it is:
 * each job awaiting a timer of its own, every job's timer fired in the same timers phase and their slices
 * ran back to back (four comparisons finishing together held the server for seconds).
 */
const waiting: (() => void)[] = [];
let pumping = false;

/**
 * Node's setImmediate: one set during a turn runs in the next, after that turn's I/O (a socket, a request)
 * is read. (A 0 ms timer set in the timers phase may run in the same phase when the loop's clock lags.)
 * A page has none: a timer there.
 */
const immediate = (globalThis as { setImmediate?: (f: () => void) => unknown }).setImmediate;
const nextTurn: (f: () => void) => void = immediate ? (f) => void immediate(f) : (f) => void setTimeout(f, 0);

function pump(): void {
  waiting.shift()!();
  if (waiting.length > 0) nextTurn(pump);
  else pumping = false;
}

/** A turn of the event loop, shared fairly with other work in slices. */
const turn = (): Promise<void> =>
  new Promise((resolve) => {
    waiting.push(resolve);
    if (pumping) return;
    pumping = true;
    nextTurn(pump);
  });

/** When the current window of work done as data arrives began; null until some is done in this turn. */
let arrivalsSince: number | null = null;

/**
 * Work done as data arrives (each pod of a node's list decoded as its bytes come in) shares one budget per
 * turn of the event loop: a thousand nodes' lists arriving together were decoded back to back in one turn,
 * holding the loop for 200 ms and more. A reader calls this after each piece of work: null while the
 * turn's budget lasts, else a turn of the shared pump to wait for (its stream paused) before reading on.
 */
export function afterArrivalWork(budgetMs = 12): Promise<void> | null {
  const now = performance.now();
  if (arrivalsSince === null) {
    arrivalsSince = now;
    nextTurn(() => (arrivalsSince = null));
    return null;
  }
  return now - arrivalsSince > budgetMs ? turn() : null;
}

/**
 * Runs `steps` to its end in slices of at most `budgetMs`, each in a turn of its own (the first too: work
 * started in the same turn as other work waits for the next); its return value is the result.
 */
export async function runInSlices<P, R>(steps: Iterator<P, R>, { budgetMs = 12, signal, onPause }: SliceOptions<P> = {}): Promise<R> {
  try {
    for (;;) {
      await turn();
      signal?.throwIfAborted();
      const until = performance.now() + budgetMs;
      let step = steps.next();
      while (!step.done && performance.now() < until) step = steps.next();
      if (step.done) return step.value;
      onPause?.(step.value);
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
