import type { Client, ClientChannel } from 'ssh2';

/** Quotes one word for a POSIX shell (sshd runs exec commands through the login shell). */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * Opens an exec channel without a pty (a pty would mangle binary streams). Resolves once the
 * server started the command. ssh2 throws synchronously when the connection is already gone;
 * that becomes a rejection here.
 */
export function openExec(client: Client, command: string): Promise<ClientChannel> {
  return new Promise((resolve, reject) => {
    try {
      client.exec(command, { pty: false }, (err, ch) => {
        if (err) return reject(err);
        // A short command's output, exit status and close can come in the same read as the channel's start: ssh2
        // emits them before the caller (a promise later) listens. Data and close wait for a reader; the exit status
        // is a bare event, so it is kept here for onExit.
        ch.once('exit', (code: number | null) => exitCodes.set(ch, code));
        resolve(ch);
      });
    } catch (err) {
      reject(err);
    }
  });
}

const exitCodes = new WeakMap<ClientChannel, number | null>();

/** Calls `listener` with the command's exit code (null: ended by a signal), even when it came before this call. */
export function onExit(ch: ClientChannel, listener: (code: number | null) => void): void {
  if (exitCodes.has(ch)) listener(exitCodes.get(ch)!);
  else ch.once('exit', (code: number | null) => listener(code));
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
export async function runRemote(client: Client, command: string, options: RemoteRunOptions = {}): Promise<RemoteRunResult> {
  const { timeoutMs = 10_000, maxStdoutBytes = Infinity } = options;
  const ch = await openExec(client, command);
  return new Promise((resolve, reject) => {
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let code: number | null = null;
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
    onExit(ch, (c) => (code = c));
    ch.on('error', () => {});
    ch.on('close', () => {
      clearTimeout(timer);
      // Decoded whole: a character split between two packets stays one character.
      resolve({ stdout: Buffer.concat(stdout).toString(), stderr: Buffer.concat(stderr).toString(), code });
    });
    ch.end();
  });
}
