/**
 * Output chunks (a printer's ~1 MiB views, valid only during the call) to stdout without ever holding the
 * whole output: each chunk is copied into a buffer from a small pool that writes hand back, and `wait` asks
 * the producer to pause while the reader (a pipe to jq, a slow terminal) is more than HIGH_WATER behind.
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';

const HIGH_WATER = 8 * 1024 * 1024;

export class ChunkedOutput {
  bytes = 0;
  private readonly pool: Buffer[] = [];

  constructor(private readonly out: Writable = process.stdout) {}

  readonly write = (chunk: Uint8Array): void => {
    let buf = this.pool.pop();
    // Reused rather than allocated per chunk: fresh 1 MiB buffers cost more in page faults than the copy.
    if (!buf || buf.length < chunk.length) buf = Buffer.allocUnsafe(Math.max(chunk.length, 1 << 20));
    buf.set(chunk);
    const owned = buf;
    this.out.write(owned.subarray(0, chunk.length), () => this.pool.push(owned));
    this.bytes += chunk.length;
  };

  /** A promise to wait for before producing more, or null while the reader keeps up. */
  readonly wait = (): Promise<void> | null => (this.out.writableLength > HIGH_WATER ? once(this.out, 'drain').then(() => undefined) : null);

  /** Resolves once everything written so far has reached the reader. */
  flushed(): Promise<void> {
    return new Promise((resolve, reject) => this.out.write('', (err) => (err ? reject(err) : resolve())));
  }
}
