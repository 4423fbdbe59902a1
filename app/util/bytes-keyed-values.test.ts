import { describe, expect, it } from 'vitest';
import { BytesKeyedValues } from './bytes-keyed-values';

const bytes = (...b: number[]) => new Uint8Array(b);

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
    // FNV-1a (32 bits) of these two keys is the same (found by a birthday search); each finds its own value.
    const [a, b] = [bytes(67, 246, 25, 168, 160, 34), bytes(96, 46, 67, 5, 210, 10)];
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
