/**
 * The kubelet's output (WrittenLine bytes: a partial chunk without its newline, the rest of the line in the
 * next) as whole lines of text for a window: invalid UTF-8 decoded as U+FFFD, a line over `maxChars` cut with
 * a note of how much was left out, so one 50 MiB line can neither stall a window nor be shown as something else.
 */
export class TextLines {
  private parts: Buffer[] = [];
  private held = 0;
  private dropped = 0;
  private readonly decoder = new TextDecoder('utf-8', { fatal: false });

  constructor(private readonly maxChars: number) {}

  /** Takes the next bytes; returns the lines they complete. */
  push(bytes: Buffer): string[] {
    const out: string[] = [];
    let start = 0;
    for (let nl = bytes.indexOf(0x0a); nl >= 0; nl = bytes.indexOf(0x0a, start)) {
      this.keep(bytes.subarray(start, nl));
      out.push(this.take());
      start = nl + 1;
    }
    if (start < bytes.length) this.keep(bytes.subarray(start));
    return out;
  }

  /** The last line, when the log ends without a newline (a partial line at the end of a read). */
  flush(): string[] {
    return this.held || this.dropped ? [this.take()] : [];
  }

  // Four bytes per character at most: holding 4 × maxChars bytes is always enough for maxChars characters.
  private keep(b: Buffer) {
    const room = Math.max(0, this.maxChars * 4 - this.held);
    if (b.length > room) this.dropped += b.length - room;
    const kept = b.subarray(0, Math.min(b.length, room));
    if (kept.length) {
      this.parts.push(Buffer.from(kept));
      this.held += kept.length;
    }
  }

  private take(): string {
    let text = this.decoder.decode(Buffer.concat(this.parts));
    let cutChars = 0;
    if (text.length > this.maxChars) {
      // Not between the two halves of a character outside the BMP (an emoji): a lone half is no character.
      const high = text.charCodeAt(this.maxChars - 1);
      const at = high >= 0xd800 && high <= 0xdbff ? this.maxChars - 1 : this.maxChars;
      cutChars = text.length - at;
      text = text.slice(0, at);
    }
    if (cutChars || this.dropped) text += ` … [line cut: ${cutChars ? `${cutChars} more characters` : ''}${cutChars && this.dropped ? ' and ' : ''}${this.dropped ? `${this.dropped} more bytes` : ''} not shown]`;
    this.parts = [];
    this.held = 0;
    this.dropped = 0;
    return text;
  }
}
