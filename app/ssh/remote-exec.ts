import type { NodeChannels } from './node-channels';

/** Quotes one word for a POSIX shell (sshd runs exec commands through the login shell). */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export interface RemoteRunResult {
  stdout: string;
  stderr: string;
  /** Exit code, or null when the command was killed by a signal or the channel closed early. */
  code: number | null;
}

/** A remote command that ran too long, or printed more than it may. */
export class RemoteRunError extends Error {
  override readonly name = 'RemoteRunError';
  constructor(
    readonly code: 'TIMEOUT' | 'TOO_MUCH_OUTPUT',
    message: string,
  ) {
    super(message);
  }
}

export interface RemoteRunOptions {
  /** Default 10 s. */
  timeoutMs?: number;
  /** The most stdout kept: past it the command is stopped and the run fails (default: no limit). */
  maxStdoutBytes?: number;
}

/**
 * Runs a short command and collects its output. The command runs through the user's login
 * shell, whose rc files can hang (a stale lock, a prompt), so it gets a deadline; a command that may
 * print without end (`cat` of a device) gets a bound on its output too.
 */
export async function runRemote(channels: NodeChannels, command: string, options: RemoteRunOptions = {}): Promise<RemoteRunResult> {
  const { timeoutMs = 10_000, maxStdoutBytes = Infinity } = options;
  const ch = await channels.exec(command);
  return new Promise((resolve, reject) => {
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    const fail = (err: RemoteRunError) => {
      clearTimeout(timer);
      reject(err);
      ch.close();
    };
    const timer = setTimeout(
      () => fail(new RemoteRunError('TIMEOUT', `remote command did not finish within ${timeoutMs / 1000} s (does the login shell's rc file hang?)`)),
      timeoutMs,
    );
    ch.on('data', (d: Buffer) => {
      // Past the limit the run has failed already: what is still in flight is dropped.
      if (stdoutBytes > maxStdoutBytes) return;
      stdoutBytes += d.length;
      if (stdoutBytes > maxStdoutBytes) return fail(new RemoteRunError('TOO_MUCH_OUTPUT', `remote command printed more than ${maxStdoutBytes} bytes`));
      stdout.push(d);
    });
    const stderr: Buffer[] = [];
    ch.stderr.on('data', (d: Buffer) => stderr.push(d));
    ch.on('error', () => {});
    ch.on('close', () => {
      clearTimeout(timer);
      // Decoded whole: a character split between two packets stays one character.
      void ch.exit.then((code) => resolve({ stdout: Buffer.concat(stdout).toString(), stderr: Buffer.concat(stderr).toString(), code }));
    });
    ch.end();
  });
}
