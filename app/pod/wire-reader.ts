/**
 * A minimal protobuf wire reader. Hand-written rather than protobufjs's Reader because the decoder needs
 * exact int64 values (bigint beyond 2^53), byte offsets in every error, and the raw bytes of fields it
 * does not know; it is also on the hottest path of the app.
 */
export class WireFormatError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = 'WireFormatError';
  }
}

const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
const TWO_32 = 4294967296;

export class WireReader {
  pos: number;
  /** Node's native UTF-8 slicing (Buffer#utf8Slice) is several times faster than TextDecoder per string. */
  private readonly node: (Buffer & { utf8Slice(start: number, end: number): string }) | undefined;

  constructor(
    readonly buf: Uint8Array,
    start = 0,
    readonly end = buf.length,
  ) {
    this.pos = start;
    this.node = typeof Buffer === 'function' ? (Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength) as WireReader['node']) : undefined;
  }

  private truncated(what: string): WireFormatError {
    return new WireFormatError(`truncated ${what}`, this.pos);
  }

  /**
   * An unsigned varint that must fit in 32 bits (tags, lengths). A larger one is refused, as Go's protobuf
   * refuses it (a length beyond the message, a field number beyond int32): wrapped, 2^32+9 would read as 9
   * and the bytes after it as a pod.
   */
  uint32(): number {
    const buf = this.buf;
    let pos = this.pos;
    const end = this.end;
    if (pos >= end) throw this.truncated('varint');
    let b = buf[pos++]!;
    let value = b & 0x7f;
    if (b < 0x80) {
      this.pos = pos;
      return value;
    }
    let shift = 7;
    while (true) {
      if (pos >= end) {
        this.pos = pos;
        throw this.truncated('varint');
      }
      b = buf[pos++]!;
      // Bits 32 and up (the fifth byte's upper three, any later byte's seven) must be zero.
      if (shift < 28 ? false : shift === 28 ? b & 0x70 : b & 0x7f) {
        throw new WireFormatError('a tag or length varint larger than 4294967295 (2^32-1), which protobuf refuses', this.pos);
      }
      value |= (b & 0x7f) << shift;
      if (b < 0x80) break;
      shift += 7;
      if (shift > 63) {
        this.pos = pos;
        throw new WireFormatError('varint longer than 10 bytes', pos);
      }
    }
    this.pos = pos;
    return value >>> 0;
  }

  /** A varint as int64: a number when exact, a bigint beyond ±(2^53-1). */
  int64(): number | bigint {
    const buf = this.buf;
    const end = this.end;
    let pos = this.pos;
    let lo = 0;
    let hi = 0;
    let b: number;
    let shift = 0;
    // Low 28 bits, then the 4 bits that straddle lo and hi, then the high bits.
    for (; shift < 28; shift += 7) {
      if (pos >= end) {
        this.pos = pos;
        throw this.truncated('varint');
      }
      b = buf[pos++]!;
      lo |= (b & 0x7f) << shift;
      if (b < 0x80) {
        this.pos = pos;
        return lo;
      }
    }
    if (pos >= end) {
      this.pos = pos;
      throw this.truncated('varint');
    }
    b = buf[pos++]!;
    lo |= (b & 0x0f) << 28;
    hi = (b & 0x7f) >> 4;
    if (b >= 0x80) {
      for (shift = 3; ; shift += 7) {
        if (pos >= end) {
          this.pos = pos;
          throw this.truncated('varint');
        }
        if (shift > 31 + 7) {
          this.pos = pos;
          throw new WireFormatError('varint longer than 10 bytes', pos);
        }
        b = buf[pos++]!;
        if (shift < 32) hi |= (b & 0x7f) << shift;
        if (b < 0x80) break;
      }
    }
    this.pos = pos;
    lo >>>= 0;
    hi >>>= 0;
    if (hi < 0x200000) return hi * TWO_32 + lo;
    const big = BigInt.asIntN(64, (BigInt(hi) << 32n) | BigInt(lo));
    return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
  }

  /** Go's int32 wire form: a sign-extended varint; the low 32 bits are the value. */
  int32(): number {
    const v = this.int64();
    return typeof v === 'number' ? v | 0 : Number(BigInt.asIntN(32, v));
  }

  bool(): boolean {
    return this.int64() !== 0;
  }

  /** Reads a length prefix and returns the end offset of the payload that follows. */
  lengthDelimited(): number {
    const len = this.uint32();
    const end = this.pos + len;
    if (end > this.end) throw new WireFormatError(`length ${len} runs past the end of its message (${this.end - this.pos} bytes left)`, this.pos);
    return end;
  }

  /** Ends a message or packed list at `end`: its last field must not have run past it into the next. */
  expectEnd(end: number): void {
    if (this.pos !== end) throw new WireFormatError('a field runs past the end of its message', this.pos);
  }

  string(end: number): string {
    const start = this.pos;
    this.pos = end;
    return this.node ? this.node.utf8Slice(start, end) : decoder.decode(this.buf.subarray(start, end));
  }

  /** Skips one field's payload of the given wire type. */
  skip(wireType: number): void {
    switch (wireType) {
      case 0:
        this.int64();
        return;
      case 1:
        this.advance(8);
        return;
      case 2:
        this.pos = this.lengthDelimited();
        return;
      case 5:
        this.advance(4);
        return;
      default:
        throw new WireFormatError(`invalid wire type ${wireType}`, this.pos);
    }
  }

  private advance(n: number): void {
    if (this.pos + n > this.end) throw this.truncated(`${n}-byte fixed value`);
    this.pos += n;
  }
}
