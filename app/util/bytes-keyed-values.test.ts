import { describe, expect, it } from 'vitest';
import { BytesKeyedValues, hashBytes } from './bytes-keyed-values';

const bytes = (...b: number[]) => new Uint8Array(b);

describe('hashBytes', () => {
  it("is MurmurHash3's 32-bit hash (x86, seed 0)", () => {
    const hash = (text: string) => (hashBytes(new TextEncoder().encode(text)) >>> 0).toString(16);
    expect(['', 'hello', 'hello, world', 'The quick brown fox jumps over the lazy dog'].map(hash)).toEqual(['0', '248bfa47', '149bbb7f', '2e4ff723']);
  });
});

describe('BytesKeyedValues', () => {
  it('finds a value by bytes equal to its key only, whatever buffer they are in', () => {
    const values = new BytesKeyedValues<string>();
    const key = bytes(1, 2, 3);
    values.set(key, 'a');
    // The caller reuses its buffer: the key kept is a copy.
    key[0] = 9;
    expect(values.get(bytes(1, 2, 3))).toBe('a');
    expect(values.get(new Uint8Array([0, 1, 2, 3, 4]).subarray(1, 4))).toBe('a');
    expect(values.get(bytes(9, 2, 3))).toBeUndefined();
    expect(values.get(bytes(1, 2))).toBeUndefined();
    expect(values.get(bytes(1, 2, 3, 0))).toBeUndefined();
  });

  it('tells apart keys whose hashes are equal', () => {
    const [a, b] = collidingKeys();
    expect(hashBytes(a)).toBe(hashBytes(b));
    const values = new BytesKeyedValues<string>();
    values.set(a, 'a');
    expect(values.get(b)).toBeUndefined();
    values.set(b, 'b');
    expect([values.get(a), values.get(b)]).toEqual(['a', 'b']);
  });

  it('starts afresh past its bound on count or on the bytes of its keys', () => {
    const byCount = new BytesKeyedValues<number>(2);
    byCount.set(bytes(1), 1);
    byCount.set(bytes(2), 2);
    byCount.set(bytes(3), 3);
    expect([byCount.get(bytes(1)), byCount.get(bytes(3))]).toEqual([undefined, 3]);
    const byBytes = new BytesKeyedValues<number>(100, 4);
    byBytes.set(bytes(1, 1, 1), 1);
    byBytes.set(bytes(2, 2), 2);
    expect([byBytes.get(bytes(1, 1, 1)), byBytes.get(bytes(2, 2))]).toEqual([undefined, 2]);
  });
});

/** Two different 8-byte keys with one hash, by a birthday search (about 2^16 keys). */
function collidingKeys(): [Uint8Array, Uint8Array] {
  const seen = new Map<number, Uint8Array>();
  for (let i = 0; ; i++) {
    const key = new Uint8Array(8);
    new DataView(key.buffer).setFloat64(0, i * Math.PI);
    const h = hashBytes(key);
    const other = seen.get(h);
    if (other) return [other, key];
    seen.set(h, key);
  }
}
