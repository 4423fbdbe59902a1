import type { Writable } from 'node:stream';

/** What a slow reader may leave unread before `watch` stops, rather than growing memory without bound. */
export const MAX_UNREAD_OUTPUT = 64 * 1024 * 1024;

const SIZE_UNITS: Record<string, number> = { KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 };

/** `--max-unread`: a whole number of KiB, MiB or GiB (`64MiB`), in bytes; undefined when it is not one. */
export function parseUnreadLimit(text: string): number | undefined {
  const m = /^([1-9]\d*)(KiB|MiB|GiB)$/.exec(text);
  return m ? Number(m[1]) * SIZE_UNITS[m[2]!]! : undefined;
}

/** A limit in the largest unit that writes it whole: `64 MiB`, `512 KiB`. */
export function unreadLimitText(bytes: number): string {
  for (const unit of ['GiB', 'MiB', 'KiB']) if (bytes % SIZE_UNITS[unit]! === 0) return `${bytes / SIZE_UNITS[unit]!} ${unit}`;
  return `${bytes} bytes`;
}

/**
 * Writes text to a stream at the pace its reader takes it: nothing more is handed to the stream while it
 * asks to wait (back-pressure), so a burst (a watch's initial sync of 14,000 pods) is never blamed on a
 * reader that keeps up. What waits is either text, counted against the limit, or text made on its turn
 * (`later`): a sync's lines are made from pods the watch holds anyway, so they cost no extra memory.
 */
export class PacedOutput {
  private readonly queue: (string | (() => string))[] = [];
  private head = 0;
  private queuedBytes = 0;
  private waiting = false;

  constructor(
    private readonly out: Writable,
    private readonly limit = MAX_UNREAD_OUTPUT,
  ) {
    out.on('drain', () => {
      this.waiting = false;
      this.flush();
    });
  }

  /**
   * Writes `text` as soon as the reader has taken what came before; returns false (and drops it) when more
   * than the limit already waits for the reader: the reader has fallen that far behind.
   */
  write(text: string): boolean {
    if (this.queuedBytes + this.out.writableLength > this.limit) return false;
    this.queue.push(text);
    this.queuedBytes += text.length;
    this.flush();
    return true;
  }

  /** Text made only when its turn to be written comes. */
  later(make: () => string): void {
    this.queue.push(make);
    this.flush();
  }

  private flush(): void {
    while (!this.waiting && this.head < this.queue.length) {
      const next = this.queue[this.head]!;
      this.queue[this.head++] = '';
      let text: string;
      if (typeof next === 'string') {
        text = next;
        this.queuedBytes -= text.length;
      } else text = next();
      if (!this.out.write(text)) this.waiting = true;
    }
    if (this.head === this.queue.length) {
      this.queue.length = 0;
      this.head = 0;
    }
  }
}
