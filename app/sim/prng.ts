/**
 * A small seeded PRNG (mulberry32) with the helpers the simulator needs. Everything the simulator
 * invents comes from one of these, so a seed reproduces the same pods and the same churn.
 */
export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Prng.pick: no items to pick from');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Picks a key of `weights` with probability proportional to its weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    const entries = Object.entries(weights) as [K, number][];
    const total = entries.reduce((sum, [, w]) => sum + w, 0);
    let r = this.next() * total;
    for (const [key, w] of entries) {
      r -= w;
      if (r < 0) return key;
    }
    return entries[entries.length - 1]![0];
  }

  /** Lower-case hex digits, as in image digests, container IDs and config hashes. */
  hex(length: number): string {
    let out = '';
    while (out.length < length) out += Math.floor(this.next() * 4294967296).toString(16).padStart(8, '0');
    return out.length === length ? out : out.slice(0, length);
  }

  /** Lower-case alphanumerics without vowels, the alphabet of Kubernetes generated name suffixes. */
  nameSuffix(length: number): string {
    const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[this.int(0, alphabet.length - 1)];
    return out;
  }

  /** A random-looking RFC 4122 version 4 UUID. */
  uuid(): string {
    const h = this.hex(32).split('');
    h[12] = '4';
    h[16] = '89ab'[this.int(0, 3)]!;
    const s = h.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }
}
