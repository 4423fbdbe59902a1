/**
 * Gives memory back to the system after a large pod set was taken in. Connecting a node of
 * 30,000 pods decodes each once, and V8 keeps the heap that grew to until its own memory reducer sees the
 * process idle, which a server following a busy node is not for a while: ~140 MiB of old space for ~50 in
 * use, a 32 MiB young generation and freed buffers, about 170 MiB more than it needs. A memory-reducing
 * collection (V8's low-memory notification, reached through the in-process inspector's
 * HeapProfiler.collectGarbage; no port is opened) returns it at once, for ~150 ms of this thread. An
 * ordinary collection frees the objects but keeps the pages and the young generation's size.
 *
 * Only for such events, not routinely: it leaves V8 with tight heap limits for a while, and run after every
 * relist of a busy node it more than doubled the server's CPU in full collections.
 */

/** How much the resident set must have grown since the last release for a collection to be worth it. */
const RELEASE_GROWTH_BYTES = 48 << 20;
/** Waited after the last change of a burst, so the rows and events built from it are garbage by then. */
const SETTLE_MS = 500;

export interface MemoryRelease {
  /** A large pod set was taken in: collect soon, if the process has grown enough since the last time. */
  afterLargeChange(): void;
  close(): void;
}

interface InspectorSession {
  connect(): void;
  disconnect(): void;
  post(method: string, callback: (err: Error | null) => void): void;
}

export function createMemoryRelease(options: { growthBytes?: number; settleMs?: number; released?: (before: number, after: number) => void } = {}): MemoryRelease {
  const growth = options.growthBytes ?? RELEASE_GROWTH_BYTES;
  // Loaded on first use: a Node built without the inspector throws on importing it, and then nothing is released.
  let session: Promise<InspectorSession | null> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  let collecting = false;
  let floor = process.memoryUsage.rss();

  const open = (): Promise<InspectorSession | null> =>
    (session ??= import('node:inspector').then(
      ({ Session }) => {
        const s = new Session();
        s.connect();
        return s;
      },
      () => null,
    ));

  const collect = async () => {
    timer = null;
    const before = process.memoryUsage.rss();
    if (closed || collecting || before < floor + growth) return;
    collecting = true;
    try {
      const s = await open();
      if (s && !closed) await new Promise<void>((done) => s.post('HeapProfiler.collectGarbage', () => done()));
    } finally {
      collecting = false;
      floor = process.memoryUsage.rss();
      options.released?.(before, floor);
    }
  };

  return {
    afterLargeChange() {
      if (closed) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void collect(), options.settleMs ?? SETTLE_MS);
      timer.unref();
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      void session?.then((s) => s?.disconnect());
    },
  };
}
