/** Cuts a byte stream into `\n`-terminated lines, holding an incomplete last line until more comes. */
export class LineSplitter {
  /** The pieces of the incomplete line, joined only once its end comes: a long line costs no repeated copies. */
  private parts: Buffer[] = [];
  private held = 0;

  /**
   * `maxHeld`: past this many bytes the incomplete line is handed on as a piece (without a `\n`), for a stream
   * whose line may never end (a kubelet's output of a container that prints no newline); default: never.
   */
  constructor(private readonly maxHeld = Infinity) {}

  /** The complete lines in `chunk` (each with its `\n`), and pieces of a line past `maxHeld`. */
  *push(chunk: Buffer): Generator<Buffer> {
    let data = chunk;
    let i: number;
    while ((i = data.indexOf(0x0a)) >= 0) {
      const end = data.subarray(0, i + 1);
      if (this.parts.length) {
        this.parts.push(end);
        yield this.takeRest();
      } else {
        yield end;
      }
      data = data.subarray(i + 1);
    }
    if (!data.length) return;
    // A copy, so the held piece does not pin the whole chunk it came from.
    this.parts.push(Buffer.from(data));
    this.held += data.length;
    if (this.held > this.maxHeld) yield this.takeRest();
  }

  /** The incomplete line held back (empty if none), and forget it. */
  takeRest(): Buffer {
    const rest = Buffer.concat(this.parts);
    this.parts = [];
    this.held = 0;
    return rest;
  }
}
