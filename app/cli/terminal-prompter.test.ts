// The prompter on a real terminal: script(1) gives a small program a pty, and we read what reached it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { typeOnTerminal } from './testing/type-on-terminal';

const PROMPTER = resolve(import.meta.dirname, 'terminal-prompter.ts');

/** Runs `body` (TypeScript with `prompter` in scope) on a pty; types `typed` once `when` shows up. */
function onTerminal(body: string, when: RegExp, typed: string): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'ns-prompter-')), 'ask.mts');
  writeFileSync(file, `import { terminalPrompter } from ${JSON.stringify(PROMPTER)};\nconst prompter = terminalPrompter();\n${body}\nprompter.close();\n`);
  return typeOnTerminal(file, when, typed);
}

describe('terminal prompter', () => {
  it("shows a server's keyboard-interactive text with its control characters escaped, not obeyed", async () => {
    const out = await onTerminal(
      `const answers = await prompter.keyboardInteractive({
        name: 'evil\\u001b]0;PWNED\\u0007',
        instructions: 'line one\\nline two\\u001b[2J',
        prompts: [{ prompt: 'Code\\u001b[8m: ', echo: true }],
      });
      console.log('ANSWERS', JSON.stringify(answers));`,
      /Code/,
      '123\r',
    );
    expect(out).toContain('ANSWERS ["123"]');
    expect(out).toContain('evil\\x1b]0;PWNED\\x07');
    expect(out).toContain('line two\\x1b[2J');
    expect(out).toContain('Code\\x1b[8m: ');
    // No escape sequence reached the terminal.
    expect(out).not.toContain('\u001b');
  }, 30_000);
});
