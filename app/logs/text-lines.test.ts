import { describe, expect, it } from 'vitest';
import { TextLines } from './text-lines';

describe('TextLines', () => {
  it('joins a partial chunk with the rest of its line and splits at newlines', () => {
    const t = new TextLines(100);
    expect(t.push(Buffer.from('a long li'))).toEqual([]);
    expect(t.push(Buffer.from('ne\nsecond\nthi'))).toEqual(['a long line', 'second']);
    expect(t.flush()).toEqual(['thi']);
    expect(t.flush()).toEqual([]);
  });

  it('shows invalid UTF-8 as replacement characters, never dropping the line', () => {
    const t = new TextLines(100);
    expect(t.push(Buffer.from([0x6f, 0x6b, 0xff, 0xfe, 0x0a]))).toEqual(['ok\uFFFD\uFFFD']);
  });

  it('cuts a line longer than the limit and says how much is not shown', () => {
    const t = new TextLines(10);
    const [line] = t.push(Buffer.from('x'.repeat(1000) + '\n'));
    expect(line!.startsWith('x'.repeat(10) + ' … [line cut:')).toBe(true);
    expect(line).toContain('not shown');
    expect(line!.length).toBeLessThan(100);
    expect(t.push(Buffer.from('next\n'))).toEqual(['next']);
  });

  it('cuts a long line before a character made of two UTF-16 units, never between them (a lone half shows as garbage)', () => {
    const t = new TextLines(3);
    expect(t.push(Buffer.from('ab\u{1F600}cd\n'))).toEqual(['ab … [line cut: 4 more characters not shown]']);
  });
});
