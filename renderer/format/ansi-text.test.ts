import { describe, expect, it } from 'vitest';
import { ansiPlain, ansiRuns } from './ansi-text';

describe('ansiRuns', () => {
  it('turns SGR colours into runs and resets them', () => {
    expect(ansiRuns('\u001b[31merror\u001b[0m: \u001b[1;92mok\u001b[m done')).toEqual([
      { text: 'error', fg: 1 },
      { text: ': ' },
      { text: 'ok', fg: 10, bold: true },
      { text: ' done' },
    ]);
  });

  it('drops cursor moves, titles, other escapes and control characters, keeping tabs and the text', () => {
    expect(ansiPlain('a\u001b[2J\u001b[10;5Hb\u001b]0;title\u0007c\rd\u0000e\tf\u001b(Bg')).toBe('abcde\tfg');
  });

  it('leaves markup as text: nothing here is HTML', () => {
    expect(ansiRuns('<img src=x onerror=alert(1)>')).toEqual([{ text: '<img src=x onerror=alert(1)>' }]);
  });
});
