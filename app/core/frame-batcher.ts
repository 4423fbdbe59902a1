/**
 * Collects items and hands them over at most once per frame (~16 ms), so a burst of 1,000 watch
 * events per second costs the UI ~60 deliveries, not 1,000. The first item of a quiet period waits
 * at most one frame.
 */
export interface FrameBatcher<T> {
  push(item: T): void;
  /** Delivers anything pending now (e.g. before a snapshot that must include it). */
  flush(): void;
  /** Delivers anything pending now and stops. */
  close(): void;
}

export const FRAME_MS = 16;

export function createFrameBatcher<T>(deliver: (items: T[]) => void, frameMs = FRAME_MS): FrameBatcher<T> {
  let pending: T[] = [];
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return;
    const items = pending;
    pending = [];
    deliver(items);
  };

  return {
    push(item) {
      if (closed) return;
      pending.push(item);
      timer ??= setTimeout(flush, frameMs);
    },
    flush,
    close() {
      closed = true;
      flush();
    },
  };
}
