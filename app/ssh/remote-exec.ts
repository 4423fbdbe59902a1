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
      client.exec(command, { pty: false }, (err, ch) => (err ? reject(err) : resolve(ch)));
    } catch (err) {
      reject(err);
    }
  });
}

export interface RemoteRunResult {
  stdout: string;
  stderr: string;
  /** Exit code, or null when the command was killed by a signal or the channel closed early. */
  code: number | null;
}

/**
 * Runs a short command and collects its output. The command runs through the user's login
 * shell, whose rc files can hang (a stale lock, a prompt), so it gets a deadline.
 */
export async function runRemote(client: Client, command: string, timeoutMs = 10_000): Promise<RemoteRunResult> {
  const ch = await openExec(client, command);
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    let code: number | null = null;
    const timer = setTimeout(() => {
      reject(new Error(`remote command did not finish within ${timeoutMs / 1000} s (does the login shell's rc file hang?)`));
      ch.close();
    }, timeoutMs);
    ch.on('data', (d: Buffer) => (stdout += d.toString()));
    ch.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    ch.on('exit', (c: number | null) => (code = c));
    ch.on('error', () => {});
    ch.on('close', () => {
      clearTimeout(timer);
      resolve({ stdout, stderr, code });
    });
    ch.end();
  });
}
