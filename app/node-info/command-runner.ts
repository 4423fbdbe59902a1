/**
 * Runs one fixed program on the node and collects its output: over the node's SSH connection (the same
 * one its pods are read through), or on this machine when Nodescope runs on the node itself (--local).
 * A command is an argv array, never a shell line: over SSH each word is quoted (sshd hands the line to
 * the login shell, which then only unquotes it), and locally it runs without a shell at all.
 */
import { execFile } from 'node:child_process';
import type { NodeChannels } from '../ssh/node-channels';
import { RemoteRunError, runRemote, shellQuote, type RemoteRunResult } from '../ssh/remote-exec';

export interface RunOptions {
  /** Run through `sudo -n` (root-only files and sockets, for a non-root SSH user). */
  sudo?: boolean;
  /** The most stdout kept; past it the run fails (node files can be devices or huge). */
  maxStdoutBytes?: number;
  timeoutMs?: number;
}

export interface CommandRunner {
  run(argv: readonly string[], options?: RunOptions): Promise<RemoteRunResult>;
}

/** The argv as it runs, sudo included: what -v shows and what a sudoers rule must allow. */
export const commandWords = (argv: readonly string[], options: RunOptions = {}): string[] => (options.sudo ? ['sudo', '-n', ...argv] : [...argv]);

/** The command as one line a user can paste into a shell. */
export const commandLine = (argv: readonly string[], options: RunOptions = {}): string =>
  commandWords(argv, options).map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : shellQuote(w))).join(' ');

/**
 * One command at a time, and a command whose channel closed without an exit status is run once more:
 * under load, against OpenSSH on loopback, some channels closed without their exit status (more often
 * with several open at once; cause not found), which would read as a killed command. Every node command
 * is read-only, so running it again changes nothing.
 */
export function sshCommandRunner(channels: () => Promise<NodeChannels>): CommandRunner {
  let last: Promise<unknown> = Promise.resolve();
  const once = async (argv: readonly string[], options: RunOptions) => runRemote(await channels(), commandWords(argv, options).map(shellQuote).join(' '), options);
  return {
    run: (argv, options = {}) => {
      const next = last.then(async () => {
        const r = await once(argv, options);
        return r.code === null ? once(argv, options) : r;
      });
      last = next.catch(() => {});
      return next;
    },
  };
}

/** On the node itself: execFile, so no shell parses anything. */
export function localCommandRunner(): CommandRunner {
  return {
    run: (argv, options = {}) => {
      const [file, ...args] = commandWords(argv, options);
      const { timeoutMs = 10_000, maxStdoutBytes = 64 << 20 } = options;
      return new Promise((resolve, reject) => {
        execFile(file!, args, { timeout: timeoutMs, maxBuffer: maxStdoutBytes, encoding: 'utf8' }, (err, stdout, stderr) => {
          const e = err as (NodeJS.ErrnoException & { code?: string | number; killed?: boolean }) | null;
          if (e?.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') return reject(new RemoteRunError('TOO_MUCH_OUTPUT', `command printed more than ${maxStdoutBytes} bytes`));
          if (e?.killed) return reject(new RemoteRunError('TIMEOUT', `command did not finish within ${timeoutMs / 1000} s`));
          // A program that is not there is an answer like a shell's "not found" (exit 127), not a crash.
          if (e?.code === 'ENOENT') return resolve({ stdout: '', stderr: `${file}: command not found`, code: 127 });
          resolve({ stdout, stderr, code: e ? (typeof e.code === 'number' ? e.code : null) : 0 });
        });
      });
    },
  };
}

/** A runner that reports each command before it runs (-v). */
export function announcingRunner(runner: CommandRunner, announce: (line: string) => void): CommandRunner {
  return {
    run: (argv, options) => {
      announce(commandLine(argv, options));
      return runner.run(argv, options);
    },
  };
}
