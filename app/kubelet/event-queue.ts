/**
 * A consumer working through a backlog hands the event loop back this often, so the socket keeps
 * being read while it decodes (a 30,000-pod replay is seconds of decoding).
 */
const SLICE_MS = 8;

const nextMacrotask = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * An unbounded queue between a producer that must never wait (the grpc stream: the kubelet drops
 * watchers more than 100 events behind) and an async consumer. Ends with an optional error.
 * Consuming a backlog never holds the event loop for more than about SLICE_MS: items queued already
 * are otherwise handed over in one chain of microtasks, during which no socket is read.
 */
export class EventQueue<T> implements AsyncIterable<T> {
  /** A taken item's slot is emptied (undefined) at once: a consumed raw message must not outlive its use. */
  private items: (T | undefined)[] = [];
  private head = 0;
  private ended = false;
  private error: unknown;
  private wake: (() => void) | undefined;

  push(item: T): void {
    if (this.ended) return;
    this.items.push(item);
    this.signal();
  }

  /** No more items; the consumer gets what is queued, then `error` is thrown (if given). */
  end(error?: unknown): void {
    if (this.ended) return;
    this.ended = true;
    this.error = error;
    this.signal();
  }

  get length(): number {
    return this.items.length - this.head;
  }

  private signal(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let sliceStart = performance.now();
    for (;;) {
      if (this.head < this.items.length) {
        // The time measured includes the consumer's work on earlier items (it runs between yields).
        if (performance.now() - sliceStart > SLICE_MS) {
          await nextMacrotask();
          sliceStart = performance.now();
          continue;
        }
        const item = this.items[this.head]!;
        // Let go of it now, not at the next compaction: a 30,000-pod replay queued whole would otherwise
        // keep every message alive beside the copy the consumer keeps of its pod, until half were taken.
        this.items[this.head++] = undefined;
        // Compact now and then so a long watch does not keep every consumed event alive.
        if (this.head > 1024 && this.head * 2 > this.items.length) {
          this.items = this.items.slice(this.head);
          this.head = 0;
        }
        yield item;
        continue;
      }
      if (this.ended) {
        if (this.error !== undefined) throw this.error;
        return;
      }
      await new Promise<void>((r) => (this.wake = r));
      sliceStart = performance.now();
    }
  }
}
