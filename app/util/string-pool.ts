/**
 * One copy of each string value among those seen lately. Every decoded pod brings its own copy of
 * each string, so 30,000 rows would hold the same namespace, node, phase, owner or label value 30,000
 * times (~40 bytes each, ~6 MiB of the UI server's heap at the bench's node). Bounded: past `limit`
 * values it starts afresh, so values of pods long gone are not kept for ever.
 */
export class StringPool {
  private readonly values = new Map<string, string>();

  constructor(private readonly limit = 50_000) {}

  /** `value`, as the copy held already when there is one. */
  get(value: string): string {
    const held = this.values.get(value);
    if (held !== undefined) return held;
    if (this.values.size >= this.limit) this.values.clear();
    this.values.set(value, value);
    return value;
  }

  get size(): number {
    return this.values.size;
  }
}
