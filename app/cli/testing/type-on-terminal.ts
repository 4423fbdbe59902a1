import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

const RUN_TS = resolve(import.meta.dirname, '..', '..', '..', 'bin', 'run-ts.js');

/**
 * Runs a TypeScript program on a pseudo-terminal (script(1)), types `typed` once `when` shows up on it, and
 * resolves with all the terminal showed when the program ends.
 */
export function typeOnTerminal(file: string, when: RegExp, typed: string): Promise<string> {
  const child = spawn('script', ['-qefc', `'${process.execPath}' '${RUN_TS}' '${file}'`, '/dev/null']);
  let shown = '';
  let sent = false;
  child.stdout.on('data', (d: Buffer) => {
    shown += d.toString();
    if (!sent && when.test(shown)) {
      sent = true;
      child.stdin.write(typed);
    }
  });
  return new Promise((done) => child.on('close', () => done(shown)));
}
