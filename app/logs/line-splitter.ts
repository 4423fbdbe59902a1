/** Cuts a byte stream into `\n`-terminated lines, holding an incomplete last line until more comes. */
export class LineSplitter {
  /** The pieces of the incomplete line, joined only once its end comes: a long line costs no repeated copies. */
  private parts: Buffer[] = [];

  /** The complete lines in `chunk` (each with its `\n`). */
  *push(chunk: Buffer): Generator<Buffer> {
    let data = chunk;
    let i: number;
    while ((i = data.indexOf(0x0a)) >= 0) {
      const end = data.subarray(0, i + 1);
      if (this.parts.length) {
        this.parts.push(end);
        yield Buffer.concat(this.parts);
        this.parts = [];
      } else {
        yield end;
      }
      data = data.subarray(i + 1);
    }
    // A copy, so the held piece does not pin the whole chunk it came from.
    if (data.length) this.parts.push(Buffer.from(data));
  }

  /** The incomplete line held back (empty if none), and forget it. */
  takeRest(): Buffer {
    const rest = Buffer.concat(this.parts);
    this.parts = [];
    return rest;
  }
}
