/**
 * Values kept by a byte string (SharedValues keeps them by a text): found by a hash of the bytes, then the
 * bytes compared whole, so a value is only ever found by bytes equal to its key. Bounded like SharedValues,
 * by count and by the bytes of the keys: past either it starts afresh.
 */
import { sameBytes } from './same-bytes';

interface Entry<T> {
  key: Uint8Array;
  value: T;
}

const c1 = 0xcc9e2d51;
const c2 = 0x1b873593;

/** A block of 4 bytes (or the last 1 to 3), mixed as MurmurHash3 mixes it. */
function mixBlock(k: number): number {
  k = Math.imul(k, c1);
  k = (k << 15) | (k >>> 17);
  return Math.imul(k, c2);
}

/**
 * MurmurHash3 (x86, 32 bits): four bytes a step, several times faster here than a byte-at-a-time hash (FNV-1a
 * took 2 µs for a template's ~400 bytes). Collisions cost a compare, never a wrong value.
 */
export function hashBytes(key: Uint8Array): number {
  const length = key.length;
  const blocks = length & ~3;
  let h = 0;
  let i = 0;
  for (; i < blocks; i += 4) {
    h ^= mixBlock(key[i]! | (key[i + 1]! << 8) | (key[i + 2]! << 16) | (key[i + 3]! << 24));
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  const rest = length & 3;
  if (rest) h ^= mixBlock(key[i]! | (rest > 1 ? key[i + 1]! << 8 : 0) | (rest > 2 ? key[i + 2]! << 16 : 0));
  h ^= length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

export class BytesKeyedValues<T> {
  private readonly byHash = new Map<number, Entry<T>[]>();
  private count = 0;
  private bytes = 0;

  constructor(
    private readonly limit = 10_000,
    private readonly limitBytes = 8 << 20,
  ) {}

  get(key: Uint8Array): T | undefined {
    const entries = this.byHash.get(hashBytes(key));
    if (entries) for (const e of entries) if (sameBytes(e.key, key)) return e.value;
    return undefined;
  }

  /** Keeps `value` under a copy of `key` (the caller may reuse its buffer). */
  set(key: Uint8Array, value: T): void {
    if (this.count >= this.limit || this.bytes + key.length > this.limitBytes) {
      this.byHash.clear();
      this.count = 0;
      this.bytes = 0;
    }
    const h = hashBytes(key);
    const entry = { key: key.slice(), value };
    const entries = this.byHash.get(h);
    if (entries) entries.push(entry);
    else this.byHash.set(h, [entry]);
    this.count++;
    this.bytes += key.length;
  }
}
