/**
 * One copy of each value among those seen lately: many pods bring equal values (a namespace, a node, a
 * label, a template's containers), and each decoded pod brings its own copy. 30,000 rows would otherwise
 * hold the same strings 30,000 times, and the fleet matrix each replica's containers again.
 * Bounded by count and by the length of the keys (a container's canonical text can be KBs): past either it
 * starts afresh, so values of pods long gone are not kept for ever (what was shared stays shared).
 */
export class SharedValues {
  private readonly values = new Map<string, unknown>();
  private chars = 0;

  constructor(
    private readonly limit = 50_000,
    private readonly limitChars = 8 << 20,
  ) {}

  /** The value kept under `key`, else `value`, kept from now on. */
  share<T>(key: string, value: T): T {
    const kept = this.values.get(key);
    if (kept !== undefined) return kept as T;
    if (this.values.size >= this.limit || this.chars + key.length > this.limitChars) {
      this.values.clear();
      this.chars = 0;
    }
    this.values.set(key, value);
    this.chars += key.length;
    return value;
  }

  /** A string, as the copy kept of it. */
  string(value: string): string {
    return this.share(value, value);
  }

  get size(): number {
    return this.values.size;
  }
}
