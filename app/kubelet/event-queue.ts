/**
 * An unbounded queue between a producer that must never wait (the grpc stream: the kubelet drops
 * watchers more than 100 events behind) and an async consumer. Ends with an optional error.
 */
export class EventQueue<T> implements AsyncIterable<T> {
  private items: T[] = [];
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
    for (;;) {
      if (this.head < this.items.length) {
        const item = this.items[this.head++]!;
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
    }
  }
}
