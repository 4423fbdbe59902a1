import { describe, expect, it } from 'vitest';
import { jsonLines } from './json-lines';

describe('jsonLines', () => {
  const text = JSON.stringify({ metadata: { name: 'a', labels: {} }, spec: { containers: [{ image: 'x', ports: [80] }] }, n: -1.5, ok: true }, null, 4) + '\n';
  const lines = jsonLines(text);

  it('finds the closing line of every multi-line object and array, for folding', () => {
    const text0 = (i: number) => lines[i]!.tokens.map((t) => t.text).join('');
    expect(lines[0]!.foldEnd).toBe(lines.length - 1);
    const meta = lines.findIndex((l) => l.tokens.some((t) => t.text === '"metadata"'));
    expect(text0(lines[meta]!.foldEnd!).trim()).toBe('},');
    const empty = lines.findIndex((l) => l.tokens.some((t) => t.text === '"labels"'));
    expect(lines[empty]!.foldEnd).toBeUndefined();
  });

  it('tells keys from string values and keeps every character', () => {
    const name = lines.find((l) => l.tokens.some((t) => t.text === '"name"'))!;
    expect(name.tokens.filter((t) => t.kind !== 'space').map((t) => [t.kind, t.text])).toEqual([
      ['key', '"name"'],
      ['punct', ':'],
      ['string', '"a"'],
      ['punct', ','],
    ]);
    expect(lines.map((l) => l.tokens.map((t) => t.text).join('')).join('\n')).toBe(text.trimEnd());
    expect(lines.some((l) => l.tokens.some((t) => t.kind === 'number' && t.text === '-1.5'))).toBe(true);
  });
});
