import type { FeedLine } from '../../app/contract/pods';

/** The live events feed: newest first, never more than `limit` lines, so memory stays flat. */
export class FeedBuffer {
  private items: FeedLine[] = [];
  constructor(readonly limit = 2000) {}

  push(lines: readonly FeedLine[]): void {
    if (lines.length === 0) return;
    const incoming = lines.slice(-this.limit).reverse();
    this.items = incoming.concat(this.items).slice(0, this.limit);
  }

  /** Newest first. A new array after every push, so views can compare by identity. */
  lines(): readonly FeedLine[] {
    return this.items;
  }
}
