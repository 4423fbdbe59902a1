import { describe, expect, it } from 'vitest';
import { NewestLines } from './newest-lines';

describe('NewestLines', () => {
  it('keeps the newest lines within the budget and counts those that gave way', () => {
    const q = new NewestLines(9);
    for (const l of ['aaaa', 'bbbb', 'cccc', 'dd']) q.push(l);
    expect(q.lines()).toEqual(['cccc', 'dd']);
    expect(q.omitted).toBe(2);
    expect(q.size).toMatchObject({ lines: 2, chars: 6 });
  });

  it('keeps the newest line even when it alone is over the budget', () => {
    const q = new NewestLines(3);
    q.push('ab');
    q.push('abcdef');
    expect(q.lines()).toEqual(['abcdef']);
    expect(q.omitted).toBe(1);
  });

  it('never holds more than the budget, nor an array much larger than what it holds, at any step of a long read', () => {
    const budget = 1000;
    const q = new NewestLines(budget);
    let pushed = 0;
    for (let i = 0; i < 100_000; i++) {
      const line = 'x'.repeat(1 + (i % 97));
      q.push(line);
      pushed++;
      const s = q.size;
      expect(s.chars <= budget || s.lines === 1).toBe(true);
      // A line given way is no longer referenced: the queue's array is bounded by what it holds, not by the read.
      expect(s.slots).toBeLessThanOrEqual(2 * s.lines + 65);
    }
    expect(q.omitted + q.size.lines).toBe(pushed);
    expect(q.lines().join('').length).toBe(q.size.chars);
    expect(q.lines().at(-1)).toBe('x'.repeat(1 + (99_999 % 97)));
  });
});
