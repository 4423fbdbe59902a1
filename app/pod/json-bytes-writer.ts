/**
 * Writes JSON text as UTF-8 bytes into one growing buffer, copying strings straight from the pod's wire
 * bytes: creating a JS string costs ~140 ns, scanning its bytes ~15 ns, and a pod holds hundreds of them.
 * Escaping is Go's encoding/json (HTML-safe); invalid UTF-8 becomes U+FFFD per bad byte, which is what
 * kubectl ends up printing (the API server sends `\ufffd`, kubectl decodes it and prints the character).
 */
const HEX = '0123456789abcdef';

/** A member's `"name": ` bytes, with its cache of lead-in variants per depth (see JsonBytesWriter.key). */
export interface MemberKey {
  bytes: Uint8Array;
  withLead: Uint8Array[];
}

/** Bytes that Go copies into a JSON string as they are: printable ASCII except `"`, `\\`, `<`, `>`, `&`. */
const PLAIN = new Uint8Array(256);
for (let b = 0x20; b < 0x80; b++) PLAIN[b] = b === 34 || b === 92 || b === 60 || b === 62 || b === 38 ? 0 : 1;
const encoder = new TextEncoder();

export class JsonBytesWriter {
  out = new Uint8Array(1 << 16);
  op = 0;

  constructor(readonly pretty: boolean) {}

  reset(): void {
    this.op = 0;
  }

  ensure(n: number): void {
    if (this.op + n <= this.out.length) return;
    let size = this.out.length * 2;
    while (size < this.op + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.out.subarray(0, this.op));
    this.out = next;
  }

  byte(b: number): void {
    this.ensure(1);
    this.out[this.op++] = b;
  }

  /** Pre-encoded bytes, e.g. a member's `"name": `. */
  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    // TypedArray#set costs a flat ~10 ns, a byte loop ~1 ns a byte: short runs go by hand.
    if (b.length > 12) {
      this.out.set(b, this.op);
      this.op += b.length;
      return;
    }
    const out = this.out;
    let op = this.op;
    for (let i = 0; i < b.length; i++) out[op++] = b[i]!;
    this.op = op;
  }

  /** A newline and 4 spaces per level (nothing in compact layout). */
  indent(depth: number): void {
    if (this.pretty) this.bytes(this.lead(depth, false));
  }

  /** Bytes that open a member or element: an optional comma, then the newline and indentation of `depth`. */
  private readonly leads: Uint8Array[][] = [[], []];
  lead(depth: number, comma: boolean): Uint8Array {
    const cache = this.leads[comma ? 1 : 0]!;
    return (cache[depth] ??= new TextEncoder().encode(`${comma ? ',' : ''}${this.pretty ? `\n${'    '.repeat(depth)}` : ''}`));
  }

  /**
   * A member's key with what precedes it, as one copy: `,\n        "name": `. Cached per key, depth and
   * position, because writing comma, indentation and key separately is most of a pod's printing time.
   */
  key(key: MemberKey, depth: number, first: boolean): void {
    const slot = depth * 2 + (first ? 0 : 1);
    let bytes = key.withLead[slot];
    if (!bytes) {
      const lead = this.lead(depth, !first);
      bytes = key.withLead[slot] = new Uint8Array(lead.length + key.bytes.length);
      bytes.set(lead);
      bytes.set(key.bytes, lead.length);
    }
    this.bytes(bytes);
  }

  /** Text that is already JSON (ASCII or not), written as UTF-8. */
  text(s: string): void {
    // Room for ASCII only: deep managedFields text runs to hundreds of MB, three times that would not fit.
    this.ensure(s.length);
    const out = this.out;
    let op = this.op;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) {
        // Rare (managedFields content): let the encoder handle the rest.
        this.op = op;
        this.ensure((s.length - i) * 3);
        this.op += encoder.encodeInto(s.slice(i), this.out.subarray(this.op)).written;
        return;
      }
      out[op++] = c;
    }
    this.op = op;
  }

  /** A JSON string from UTF-8 bytes `buf[start, end)`, escaped as Go does. */
  str(buf: Uint8Array, start: number, end: number): void {
    if (end - start > LONG && isPlainNative(buf, start, end)) {
      // Long clean strings (commands, annotations): native scan and one native copy beat a byte loop.
      this.ensure(end - start + 2);
      const out = this.out;
      out[this.op++] = 34;
      out.set(buf.subarray(start, end), this.op);
      this.op += end - start;
      out[this.op++] = 34;
      return;
    }
    this.ensure((end - start) * 6 + 2);
    const out = this.out;
    let op = this.op;
    out[op++] = 34;
    let i = start;
    while (i < end) {
      // Copy bytes that need no escaping as they are scanned (most strings are short and all plain).
      let b = buf[i]!;
      while (PLAIN[b] === 1) {
        out[op++] = b;
        if (++i === end) break;
        b = buf[i]!;
      }
      if (i === end) break;
      if (b < 0x80) {
        i++;
        out[op++] = 92;
        switch (b) {
          case 34:
          case 92:
            out[op++] = b;
            break;
          case 10:
            out[op++] = 110;
            break;
          case 13:
            out[op++] = 114;
            break;
          case 9:
            out[op++] = 116;
            break;
          case 8:
            out[op++] = 98;
            break;
          case 12:
            out[op++] = 102;
            break;
          default:
            out[op++] = 117;
            out[op++] = 48;
            out[op++] = 48;
            out[op++] = HEX.charCodeAt(b >> 4);
            out[op++] = HEX.charCodeAt(b & 15);
        }
        continue;
      }
      const size = runeSize(buf, i, end);
      if (size === 0) {
        out[op++] = 0xef;
        out[op++] = 0xbf;
        out[op++] = 0xbd;
        i++;
      } else if (size === 3 && b === 0xe2 && buf[i + 1] === 0x80 && (buf[i + 2] === 0xa8 || buf[i + 2] === 0xa9)) {
        // U+2028 / U+2029: Go escapes them so the JSON is safe inside JavaScript.
        out[op++] = 92;
        out[op++] = 117;
        out[op++] = 50;
        out[op++] = 48;
        out[op++] = 50;
        out[op++] = buf[i + 2] === 0xa8 ? 56 : 57;
        i += 3;
      } else {
        for (let k = 0; k < size; k++) out[op++] = buf[i + k]!;
        i += size;
      }
    }
    out[op++] = 34;
    this.op = op;
  }

  /** A JSON string from a JS string (quantities and other short values that were already decoded). */
  jsStr(s: string): void {
    this.ensure(s.length + 2);
    const out = this.out;
    let op = this.op;
    out[op++] = 34;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80 || PLAIN[c] !== 1) {
        // Needs escaping or is not ASCII: start over on the general path.
        const bytes = encoder.encode(s);
        this.str(bytes, 0, bytes.length);
        return;
      }
      out[op++] = c;
    }
    out[op++] = 34;
    this.op = op;
  }

  num(v: number | bigint): void {
    if (typeof v === 'number' && v >= 0 && v < 1e9 && Number.isInteger(v)) {
      // The common case (counts, ports, seconds) without creating a string.
      this.ensure(10);
      if (v === 0) {
        this.out[this.op++] = 48;
        return;
      }
      let digits = 0;
      for (let x = v; x > 0; x = Math.floor(x / 10)) digits++;
      let op = this.op + digits;
      this.op = op;
      for (let x = v; x > 0; x = Math.floor(x / 10)) this.out[--op] = 48 + (x % 10);
      return;
    }
    this.text(String(v));
  }

  bool(v: boolean): void {
    this.text(v ? 'true' : 'false');
  }

  /** A Time's JSON: null, or its RFC 3339 text (ASCII). */
  time(t: string | null): void {
    this.text(t === null ? 'null' : `"${t}"`);
  }

  /** The written bytes (a view: copy them before the next reset). */
  view(from = 0): Uint8Array {
    return this.out.subarray(from, this.op);
  }
}

/** Strings longer than this are checked natively first (a native call costs ~100 ns, a byte in JS ~1.5 ns). */
const LONG = 96;
/** Bytes that need escaping or UTF-8 checking, matched in a latin1 view (one char per byte). */
const NOT_PLAIN = /[\x00-\x1f"\\<>&\x80-\xff]/;
type NodeBuffer = Uint8Array & { latin1Slice(start: number, end: number): string };

function isPlainNative(buf: Uint8Array, start: number, end: number): boolean {
  const slice = (buf as NodeBuffer).latin1Slice;
  if (typeof slice !== 'function') return false;
  return !NOT_PLAIN.test(slice.call(buf, start, end));
}

/** Length of the valid UTF-8 sequence at `i` (Go's utf8.DecodeRune rules), or 0 when it is invalid. */
function runeSize(buf: Uint8Array, i: number, end: number): number {
  const b = buf[i]!;
  const cont = (k: number, lo = 0x80, hi = 0xbf): boolean => i + k < end && buf[i + k]! >= lo && buf[i + k]! <= hi;
  if (b >= 0xc2 && b <= 0xdf) return cont(1) ? 2 : 0;
  if (b >= 0xe0 && b <= 0xef) {
    const lo = b === 0xe0 ? 0xa0 : 0x80;
    const hi = b === 0xed ? 0x9f : 0xbf;
    return cont(1, lo, hi) && cont(2) ? 3 : 0;
  }
  if (b >= 0xf0 && b <= 0xf4) {
    const lo = b === 0xf0 ? 0x90 : 0x80;
    const hi = b === 0xf4 ? 0x8f : 0xbf;
    return cont(1, lo, hi) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/** Go sorts map keys by their bytes. */
export function compareBytes(buf: Uint8Array, a0: number, a1: number, b0: number, b1: number): number {
  const n = Math.min(a1 - a0, b1 - b0);
  for (let k = 0; k < n; k++) {
    const d = buf[a0 + k]! - buf[b0 + k]!;
    if (d !== 0) return d;
  }
  return a1 - a0 - (b1 - b0);
}
