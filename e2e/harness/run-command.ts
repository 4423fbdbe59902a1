import { execFile } from 'node:child_process';

export interface CommandResult {
  stdout: string;
  stderr: string;
  code: number;
}

/**
 * Runs a program without a shell and resolves with its exit code instead of throwing, because
 * harness tests need the failing cases (sudo refusals, ssh denials) as data. A timeout is an error:
 * ssh exits 0 on SIGTERM, so a killed run must not pass for a successful one.
 */
export function runCommand(
  file: string,
  args: readonly string[],
  opts: { input?: string | Buffer; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<CommandResult> {
  const timeoutMs = opts.timeoutMs ?? 20_000;
  return new Promise((resolve, reject) => {
    let timedOut = false;
    const child = execFile(file, args, { env: opts.env ?? process.env, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      clearTimeout(timer);
      if (timedOut) {
        reject(new Error(`${file} ${args.join(' ')} did not finish within ${timeoutMs} ms\n${stderr}`));
      } else if (err && typeof err.code !== 'number') {
        reject(new Error(`${file} ${args.join(' ')} failed to run: ${err.message}\n${stderr}`));
      } else {
        resolve({ stdout, stderr, code: err ? Number(err.code) : 0 });
      }
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    // A program may exit without reading its input; that EPIPE is not the caller's failure.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(opts.input ?? '');
  });
}

/** Like runCommand, but a non-zero exit is an error that carries the program's stderr. */
export async function runChecked(file: string, args: readonly string[], input?: string): Promise<string> {
  const r = await runCommand(file, args, input === undefined ? {} : { input });
  if (r.code !== 0) throw new Error(`${file} ${args.join(' ')} exited ${r.code}: ${r.stderr.trim() || r.stdout.trim()}`);
  return r.stdout;
}
