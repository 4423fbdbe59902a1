import { describe, expect, it } from 'vitest';
import { LineSplitter } from './line-splitter';

describe('LineSplitter', () => {
  it('joins a line across chunks and holds back an unterminated end', () => {
    const s = new LineSplitter();
    const out = [...s.push(Buffer.from('a\nbc')), ...s.push(Buffer.from('d')), ...s.push(Buffer.from('e\nf'))].map(String);
    expect(out).toEqual(['a\n', 'bcde\n']);
    expect(String(s.takeRest())).toBe('f');
    expect(String(s.takeRest())).toBe('');
  });

  it('takes a 64 MB line in 64 KiB chunks without copying it over and over', () => {
    const s = new LineSplitter();
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let lines = 0;
    // Joined on every chunk this would copy ~32 TB; pieces joined once copy 64 MB.
    for (let i = 0; i < 1024; i++) for (const l of s.push(chunk)) lines += l.length;
    for (const l of s.push(Buffer.from('\n'))) lines += l.length;
    expect(lines).toBe(64 * 1024 * 1024 + 1);
  });

  it('hands on a line that never ends as soon as more than maxHeld bytes of it are held', () => {
    const s = new LineSplitter(100);
    const out = [...s.push(Buffer.alloc(60, 0x61)), ...s.push(Buffer.alloc(60, 0x62)), ...s.push(Buffer.from('c\nd'))].map(String);
    expect(out).toEqual(['a'.repeat(60) + 'b'.repeat(60), 'c\n']);
    expect(String(s.takeRest())).toBe('d');
  });
});
