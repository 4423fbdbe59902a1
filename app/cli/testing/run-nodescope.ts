/** Runs the `nodescope` CLI as a user does: bin/nodescope.js in a child process. */
import { spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../../../bin/nodescope.js');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI. Without `tty` it runs in its own session, so it has no controlling terminal, as under
 * cron or CI. With `tty`, script(1) gives it one; `answers` are typed when `prompt` text shows up.
 * `until` sees stdout and stderr as they grow, and may answer with Ctrl-C (true), sent once: typed on the
 * terminal with `tty` (the whole foreground process group gets it, as a user's does), else to the CLI's
 * process alone; `signal` is sent to the CLI's process instead (SIGTERM: a supervisor's stop, `kill PID`).
 */
export function nodescope(
  args: string[],
  opts: { tty?: { answers: [RegExp, string][] }; env?: NodeJS.ProcessEnv; cwd?: string; until?: (out: string, err: string) => boolean; signal?: NodeJS.Signals } = {},
): Promise<Run> {
  const quoted = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = opts.tty
    ? spawn('script', ['-qefc', quoted, '/dev/null'], { env: { ...process.env, ...opts.env }, cwd: opts.cwd })
    : spawn(process.execPath, [BIN, ...args], { detached: true, env: { ...process.env, ...opts.env }, cwd: opts.cwd });
  const answers = [...(opts.tty?.answers ?? [])];
  const run: Run = { code: null, stdout: '', stderr: '' };
  let interrupted = false;
  const checkUntil = () => {
    if (interrupted || !opts.until?.(run.stdout, run.stderr)) return;
    interrupted = true;
    if (opts.tty && !opts.signal) child.stdin.write('\x03');
    else child.kill(opts.signal ?? 'SIGINT');
  };
  child.stdout.on('data', (d: Buffer) => {
    run.stdout += d.toString();
    const next = answers[0];
    if (next && next[0].test(run.stdout)) {
      answers.shift();
      child.stdin.write(`${next[1]}\r`);
    }
    checkUntil();
  });
  child.stderr.on('data', (d: Buffer) => {
    run.stderr += d.toString();
    checkUntil();
  });
  return new Promise((resolve) =>
    child.on('close', (code) => {
      run.code = code;
      resolve(run);
    }),
  );
}

/**
 * `nodescope watch ...` until the first `pods` lines are out, then `change()` (e.g. 3 churn steps),
 * then until `changes` more lines came; interrupted with Ctrl-C as a user would.
 */
export function watchThroughChanges(args: string[], pods: number, changes: number, change: () => void): Promise<Run> {
  let changed = false;
  return nodescope(args, {
    until: (out) => {
      const lines = out.split('\n').filter(Boolean);
      if (lines.length >= pods && !changed) {
        changed = true;
        change();
      }
      return lines.length >= pods + changes;
    },
  });
}
