/**
 * Runs one fixed program on the node and collects its output: over the node's SSH connection (the same
 * one its pods are read through), or on this machine when Nodescope runs on the node itself (--local).
 * A command is an argv array, never a shell line: over SSH each word is quoted (sshd hands the line to
 * the login shell, which then only unquotes it), and locally it runs without a shell at all.
 */
import { execFile, spawn } from 'node:child_process';
import type { NodeChannels } from '../ssh/node-channels';
import { RemoteRunError, runRemote, shellQuote, type RemoteRunResult } from '../ssh/remote-exec';

export interface RunOptions {
  /** Run through `sudo -n` (root-only files and sockets, for a non-root SSH user). */
  sudo?: boolean;
  /** The most stdout kept; past it the run fails (node files can be devices or huge). */
  maxStdoutBytes?: number;
  timeoutMs?: number;
}

/** How a streamed command ended: its exit code (null: killed, or stopped by its caller) and the end of its stderr. */
export interface StreamEnd {
  code: number | null;
  stderr: string;
}

export interface CommandRunner {
  run(argv: readonly string[], options?: RunOptions): Promise<RemoteRunResult>;
  /**
   * Runs a command that prints until stopped (`journalctl -f`): its output goes to `onData` as it comes,
   * beside the one-at-a-time runs, until it exits or `signal` stops it: its process killed, or over SSH its
   * channel closed (which ends its stdin, and so it: see ENDS_WITH_STDIN).
   */
  stream(argv: readonly string[], options: Pick<RunOptions, 'sudo'>, onData: (chunk: Buffer) => void, signal: AbortSignal): Promise<StreamEnd>;
}

/** Keeps the end of what a command printed on stderr, for saying why it stopped. */
const STDERR_KEPT = 4096;
const keepEnd = (kept: string, chunk: Buffer) => (kept + chunk.toString()).slice(-STDERR_KEPT);

/** The argv as it runs, sudo included: what -v shows and what a sudoers rule must allow. */
export const commandWords = (argv: readonly string[], options: RunOptions = {}): string[] => (options.sudo ? ['sudo', '-n', ...argv] : [...argv]);

/** The command as one line a user can paste into a shell. */
export const commandLine = (argv: readonly string[], options: RunOptions = {}): string =>
  commandWords(argv, options).map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : shellQuote(w))).join(' ');

/**
 * A following command as run over SSH, `sh -c` this with its words as arguments: sshd leaves a command
 * without a terminal running when its channel closes, and one that prints nothing more, or never sees its
 * reader go (an older journalctl), would stay. The channel's stdin is watched instead: at its end (the channel
 * closed) the session's processes are sent SIGTERM. A fixed script: the command's words are only its arguments.
 */
const ENDS_WITH_STDIN = [
  'exec 3<&0 </dev/null',
  '"$@" & c=$!',
  '{ while read -r _ <&3; do :; done; kill -TERM 0; } & w=$!',
  'wait $c; s=$?',
  'kill $w 2>/dev/null',
  // Ended by a signal: so is this, as sshd would have told of the command itself (no exit status).
  '[ $s -gt 128 ] && kill -$((s - 128)) $$',
  'exit $s',
].join('\n');

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
    stream: async (argv, options, onData, signal) => {
      const ch = await (await channels()).exec(['sh', '-c', ENDS_WITH_STDIN, 'sh', ...commandWords(argv, options)].map(shellQuote).join(' '));
      return new Promise((resolve) => {
        let stderr = '';
        const stop = () => ch.close();
        if (signal.aborted) stop();
        else signal.addEventListener('abort', stop, { once: true });
        ch.on('data', (d: Buffer) => !signal.aborted && onData(d));
        ch.stderr.on('data', (d: Buffer) => (stderr = keepEnd(stderr, d)));
        ch.on('error', () => {});
        ch.on('close', () => {
          signal.removeEventListener('abort', stop);
          void ch.exit.then((code) => resolve({ code, stderr }));
        });
        // Its stdin stays open until the channel closes: its end is what ends the command.
      });
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
    stream: (argv, options, onData, signal) => {
      const [file, ...args] = commandWords(argv, options);
      return new Promise((resolve) => {
        // No shell; stdin closed, as over SSH.
        const child = spawn(file!, args, { stdio: ['ignore', 'pipe', 'pipe'], signal });
        let stderr = '';
        let missing = false;
        child.stdout.on('data', (d: Buffer) => !signal.aborted && onData(d));
        child.stderr.on('data', (d: Buffer) => (stderr = keepEnd(stderr, d)));
        child.on('error', (err: NodeJS.ErrnoException) => {
          // A program that is not there ends as a shell's "not found" would (exit 127).
          if (err.code === 'ENOENT') missing = true;
        });
        child.on('close', (code) => resolve(missing ? { code: 127, stderr: `${file}: command not found` } : { code, stderr }));
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
    stream: (argv, options, onData, signal) => {
      announce(commandLine(argv, options));
      return runner.stream(argv, options, onData, signal);
    },
  };
}
