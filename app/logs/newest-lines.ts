/**
 * The newest lines of a read within a budget of characters, as a queue that lets go of the oldest as
 * newer ones come: a line given way is no longer held, so a long read of long lines holds no more than
 * the budget (the newest line alone may be over it: a line is never cut here, TextLines bounds it).
 */
export class NewestLines {
  /** The lines held from `head` on; the slots before it are emptied as their lines give way. */
  private slots: (string | undefined)[] = [];
  private head = 0;
  private held = 0;
  private dropped = 0;

  constructor(private readonly budget: number) {}

  push(line: string): void {
    this.slots.push(line);
    this.held += line.length;
    while (this.held > this.budget && this.head < this.slots.length - 1) {
      this.held -= this.slots[this.head]!.length;
      this.slots[this.head++] = undefined;
      this.dropped++;
    }
    // The emptied front goes once it is the larger part, so the queue's own array stays within twice what it holds.
    if (this.head > 64 && this.head * 2 > this.slots.length) {
      this.slots = this.slots.slice(this.head);
      this.head = 0;
    }
  }

  /** How many lines and characters are held now. */
  get size(): { lines: number; chars: number; slots: number } {
    return { lines: this.slots.length - this.head, chars: this.held, slots: this.slots.length };
  }

  /** How many lines gave way to newer ones. */
  get omitted(): number {
    return this.dropped;
  }

  /** The lines held, oldest first. */
  lines(): string[] {
    return this.slots.slice(this.head) as string[];
  }
}
