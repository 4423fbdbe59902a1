// The prompter on a real terminal: script(1) gives a small program a pty, and we read what reached it.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { typeOnTerminal } from './testing/type-on-terminal';

const PROMPTER = resolve(import.meta.dirname, 'terminal-prompter.ts');
const SOCKET_DIR = resolve(import.meta.dirname, '../ssh/private-socket-dir.ts');
const RUN_TS = resolve(import.meta.dirname, '../../bin/run-ts.js');

/**
 * Asks for a passphrase on a pty, as the OpenSSH transport does (its private socket directory made first,
 * with its signal hook), sends `signal` to the program (or types Ctrl-C) once the question shows, and returns
 * what the terminal showed then, with `stty -a` run on the same terminal after the program ended.
 */
function interruptedQuestion(signal: NodeJS.Signals | 'typed Ctrl-C'): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'ns-prompter-')), 'ask.mts');
  writeFileSync(
    file,
    `import { terminalPrompter } from ${JSON.stringify(PROMPTER)};
import { createPrivateSocketDir } from ${JSON.stringify(SOCKET_DIR)};
createPrivateSocketDir('s');
process.stdout.write(\`PID=\${process.pid}\\n\`);
const prompter = terminalPrompter();
await prompter.passphrase({ keyPath: '/k' });
process.stdout.write('ANSWERED\\n');
prompter.close();\n`,
  );
  const child = spawn('script', ['-qefc', `'${process.execPath}' '${RUN_TS}' '${file}'; echo "EXIT=$?"; stty -a`, '/dev/null']);
  let shown = '';
  let sent = false;
  child.stdout.on('data', (d: Buffer) => {
    shown += d.toString();
    const pid = /PID=(\d+)/.exec(shown)?.[1];
    if (sent || !pid || !/Enter passphrase/.test(shown)) return;
    sent = signal === 'typed Ctrl-C' ? child.stdin.write('\u0003') : process.kill(Number(pid), signal);
  });
  return new Promise((done) => child.on('close', () => done(shown)));
}

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

  it.each([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
    // Raw mode makes Ctrl-C a character: it must still interrupt, not answer.
    ['typed Ctrl-C', 130],
  ] as const)('%s during a question leaves the terminal echoing and in line mode, and still ends the program (exit %i)', async (signal, code) => {
    const shown = await interruptedQuestion(signal);
    expect(shown).not.toContain('ANSWERED');
    expect(shown).toContain(`EXIT=${code}`);
    const stty = shown.slice(shown.indexOf('EXIT='));
    expect(stty).toMatch(/(^|\s)echo(\s|$)/m);
    expect(stty).toMatch(/(^|\s)icanon(\s|$)/m);
  }, 30_000);
});
