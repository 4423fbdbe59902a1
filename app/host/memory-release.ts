/**
 * Gives memory back to the system after a large pod set was taken in. Connecting a node of
 * 30,000 pods decodes each once, and V8 keeps the heap that grew to until its own memory reducer sees the
 * process idle, which a server following a busy node is not for a while: ~140 MiB of old space for ~50 in
 * use, a 32 MiB young generation and freed buffers, about 170 MiB more than it needs. A memory-reducing
 * collection (V8's low-memory notification, reached through the in-process inspector's
 * HeapProfiler.collectGarbage; no port is opened) returns it at once, for ~150 ms of this thread. An
 * ordinary collection frees the objects but keeps the young generation at its size (measured: ~290 MiB
 * left instead of ~220).
 *
 * Only for such events, not routinely: it leaves V8 with tight heap limits for a while, and run after every
 * relist of a busy node it more than doubled the server's CPU in full collections.
 */

/** How much the resident set must have grown since the last release for a collection to be worth it. */
const RELEASE_GROWTH_BYTES = 48 << 20;
/** Waited after the last change of a burst, so the rows and events built from it are garbage by then. */
const SETTLE_MS = 500;

export interface MemoryRelease {
  /**
   * A large pod set was taken in: collect soon, if the process has grown enough since the last time. `freed`:
   * a large set was let go of (nodes now keeping rows only), which grows nothing: collect soon whatever the growth.
   */
  afterLargeChange(freed?: boolean): void;
  close(): void;
}

/**
 * Runs V8's low-memory collection through a session opened for it and closed after: releases are rare, and
 * no session stays attached to the process. Rejects when the inspector is missing or refuses the session.
 */
async function collectAllAvailableGarbage(): Promise<void> {
  const { Session } = await import('node:inspector');
  const session = new Session();
  session.connect();
  try {
    await new Promise<void>((done, fail) => session.post('HeapProfiler.collectGarbage', (err) => (err ? fail(err) : done())));
  } finally {
    session.disconnect();
  }
}

export function createMemoryRelease(
  options: {
    growthBytes?: number;
    settleMs?: number;
    collect?: () => Promise<void>;
    released?: (before: number, after: number) => void;
    /**
     * More pod sets are on their way (nodes still opening): the collection, which holds the thread for
     * hundreds of ms over a big heap, waits until they are in, looking again every settleMs.
     */
    busy?: () => boolean;
  } = {},
): MemoryRelease {
  const growth = options.growthBytes ?? RELEASE_GROWTH_BYTES;
  const collectGarbage = options.collect ?? collectAllAvailableGarbage;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  let collecting = false;
  /** Asked again during a collection: looked at once it is over. */
  let askedMeanwhile = false;
  let failed = false;
  /** A set let go of since the last collection: worth one however little the process grew. */
  let freedSince = false;
  let floor = process.memoryUsage.rss();

  const schedule = () => {
    if (closed) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void collect(), options.settleMs ?? SETTLE_MS);
    timer.unref();
  };

  const collect = async () => {
    timer = null;
    if (collecting) {
      askedMeanwhile = true;
      return;
    }
    if (!closed && options.busy?.()) return schedule();
    const before = process.memoryUsage.rss();
    if (closed || failed || (!freedSince && before < floor + growth)) return;
    freedSince = false;
    collecting = true;
    try {
      await collectGarbage();
      floor = process.memoryUsage.rss();
      options.released?.(before, floor);
    } catch (err) {
      // Without the inspector (a runtime built without it) the memory is given back when V8 gets to it.
      failed = true;
      console.error(`nodescope: memory is not given back after large pod lists here: ${(err as Error).message}`);
    } finally {
      collecting = false;
      if (askedMeanwhile) {
        askedMeanwhile = false;
        schedule();
      }
    }
  };

  return {
    afterLargeChange(freed = false) {
      freedSince ||= freed;
      schedule();
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
    },
  };
}
