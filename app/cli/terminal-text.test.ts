import { describe, expect, it } from 'vitest';
import { terminalLine, terminalText } from './terminal-text';

describe('terminal text', () => {
  it('shows the escape sequences of a hostile pod name instead of sending them', () => {
    expect(terminalLine('evil\u001b]0;PWNED\u0007\u001b[2J')).toBe('evil\\x1b]0;PWNED\\x07\\x1b[2J');
  });

  it('escapes C1 controls, DEL and bidirectional overrides, and leaves other text alone', () => {
    expect(terminalLine('a\u009b2Jb\u007fc\u202eexe.txt')).toBe('a\\x9b2Jb\\x7fc\\u202eexe.txt');
    expect(terminalLine('kube-system/coredns-7db6d8ff4d-x2v9q ✓ Größe 日本')).toBe('kube-system/coredns-7db6d8ff4d-x2v9q ✓ Größe 日本');
  });

  it('keeps the lines of a message but not a carriage return that would overwrite one', () => {
    expect(terminalText('Password:\nfor ops\r\u001b[1A')).toBe('Password:\nfor ops\\x0d\\x1b[1A');
    expect(terminalLine('two\nlines\tand a tab')).toBe('two\\x0alines\\x09and a tab');
  });
});
