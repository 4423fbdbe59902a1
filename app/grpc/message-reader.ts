import { grpcError, Status } from './grpc-error';

/**
 * Cuts a gRPC response body (chunks of any size) into its messages: each a 5-byte prefix (compressed
 * flag, length) and the message. A message is handed on as a view into the chunk it came in when it fits
 * in one, else as one copy: not copying each (a watch replay's thousands of messages) keeps the replay as
 * fast as grpc-js's, and a chunk held by a queued message is mostly messages queued beside it anyway.
 * Messages above `maxBytes` are refused before they are gathered.
 */
export class GrpcMessageReader {
  private parts: Buffer[] = [];
  private have = 0;
  /** The length of the message being gathered; -1 before its prefix. */
  private length = -1;

  constructor(
    private readonly onMessage: (message: Buffer) => void,
    private readonly maxBytes: number,
  ) {}

  push(chunk: Buffer): void {
    this.parts.push(chunk);
    this.have += chunk.length;
    for (;;) {
      if (this.length < 0) {
        if (this.have < 5) return;
        const prefix = this.take(5);
        if (prefix[0] !== 0) throw grpcError(Status.INTERNAL, 'the server sent a compressed message, which was not asked for');
        this.length = prefix.readUInt32BE(1);
        if (this.length > this.maxBytes) {
          throw grpcError(Status.RESOURCE_EXHAUSTED, `Received message larger than max (${this.length} vs. ${this.maxBytes})`);
        }
      }
      if (this.have < this.length) return;
      const message = this.take(this.length);
      this.length = -1;
      this.onMessage(message);
    }
  }

  /** Whether no message is cut off (nothing after the last whole one). */
  complete(): boolean {
    return this.length < 0 && this.have === 0;
  }

  private take(n: number): Buffer {
    const first = this.parts[0];
    this.have -= n;
    if (n === 0) return Buffer.alloc(0);
    if (first!.length >= n) {
      if (first!.length === n) this.parts.shift();
      else this.parts[0] = first!.subarray(n);
      return first!.subarray(0, n);
    }
    const joined = Buffer.concat(this.parts);
    this.parts = joined.length > n ? [joined.subarray(n)] : [];
    return joined.subarray(0, n);
  }
}

/** A request: one uncompressed message. */
export function grpcFrame(message: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(5 + message.length);
  out[0] = 0;
  out.writeUInt32BE(message.length, 1);
  out.set(message, 5);
  return out;
}
