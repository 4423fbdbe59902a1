import { describe, expect, it } from 'vitest';
import { checkBytes } from './tail-start';

describe('checkBytes', () => {
  it('is the raw line that ends what was read: a line of its own after a whole one, not every line read one by one', () => {
    let held: Buffer = Buffer.alloc(0);
    for (const l of ['T1 stdout F a\n', 'T2 stdout F b\n', 'T3 stdout F c\n']) held = checkBytes(held, Buffer.from(l));
    expect(held.toString()).toBe('T3 stdout F c\n');
  });

  it('goes on with a line read in pieces, and takes the last line of a read of several', () => {
    const part = checkBytes(checkBytes(Buffer.alloc(0), Buffer.from('T1 stdout F a\nT2 std')), Buffer.from('out F b'));
    expect(part.toString()).toBe('T2 stdout F b');
    expect(checkBytes(part, Buffer.from('\nT3 stdout F c\n')).toString()).toBe('T3 stdout F c\n');
    expect(checkBytes(part, Buffer.alloc(0))).toBe(part);
  });
});
