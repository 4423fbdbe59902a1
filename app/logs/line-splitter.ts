/** Cuts a byte stream into `\n`-terminated lines, holding an incomplete last line until more comes. */
export class LineSplitter {
  private carry: Buffer = Buffer.alloc(0);

  /** The complete lines in `chunk` (each with its `\n`). */
  *push(chunk: Buffer): Generator<Buffer> {
    let data = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    let i: number;
    while ((i = data.indexOf(0x0a)) >= 0) {
      yield data.subarray(0, i + 1);
      data = data.subarray(i + 1);
    }
    // A copy, so the carry does not pin the whole chunk it came from.
    this.carry = Buffer.from(data);
  }

  /** The incomplete line held back (empty if none), and forget it. */
  takeRest(): Buffer {
    const rest = this.carry;
    this.carry = Buffer.alloc(0);
    return rest;
  }
}
