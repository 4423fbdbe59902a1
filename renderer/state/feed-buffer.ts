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

/**
 * What "Resume (N new)" counts: the lines above `top`, the newest line when the feed was paused
 * (undefined if it was empty). Once `top` has dropped out of a buffer of `limit` lines the exact
 * count is lost, so it reads "2000+". Null when nothing came in.
 */
export function newSincePause(lines: readonly FeedLine[], top: FeedLine | undefined, limit: number): string | null {
  const count = top ? lines.indexOf(top) : lines.length;
  if (count < 0 || (!top && count >= limit)) return `${limit}+`;
  return count > 0 ? String(count) : null;
}
