/**
 * Values kept by a byte string (SharedValues keeps them by a text): found by a hash of the bytes, then the
 * bytes compared whole, so a value is only ever found by bytes equal to its key. Bounded like SharedValues,
 * by count and by the bytes of the keys: past either it starts afresh.
 */
interface Entry<T> {
  key: Uint8Array;
  value: T;
}

/** FNV-1a: a byte at a time, as fast as the bytes can be read here; collisions cost a compare, never a wrong value. */
function hashOf(key: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key[i]!, 0x01000193);
  return h;
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
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
    const entries = this.byHash.get(hashOf(key));
    if (entries) for (const e of entries) if (equal(e.key, key)) return e.value;
    return undefined;
  }

  /** Keeps `value` under a copy of `key` (the caller may reuse its buffer). */
  set(key: Uint8Array, value: T): void {
    if (this.count >= this.limit || this.bytes + key.length > this.limitBytes) {
      this.byHash.clear();
      this.count = 0;
      this.bytes = 0;
    }
    const h = hashOf(key);
    const entry = { key: key.slice(), value };
    const entries = this.byHash.get(h);
    if (entries) entries.push(entry);
    else this.byHash.set(h, [entry]);
    this.count++;
    this.bytes += key.length;
  }
}
