import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { findSshBinary } from '../ssh-config-openssh';

/**
 * The user's own `ssh`, run without a shell: how a destination is named on its command line, its version
 * (what it can do), and a spawn that keeps secrets out of argv (there are none to put in: prompts are ssh's).
 */

/** The command-line overrides a node carries (nodescope's -l -p -i -J -F, --known-hosts): ssh's own flags. */
export interface OpenSshDestination {
  /** As for ssh: an alias, host or user@host. */
  destination: string;
  user?: string;
  port?: number;
  identityFiles?: string[];
  /** ProxyJump, as ssh -J. */
  proxyJump?: string;
  configFile?: string;
  knownHosts?: string;
  /** -o options that place this hop (e.g. the ProxyCommand through a jump host's master); added by the transport. */
  extraOptions?: string[];
}

export interface OpenSshClient {
  binary: string;
  /** [major, minor], e.g. [9, 2]. */
  version: [number, number];
  env: NodeJS.ProcessEnv;
}

/** Quotes `value` for ssh's config parser (an -o line): spaces and quotes survive, as in "/x/my kh". */
const configValue = (value: string) => (/[\s"'\\]/.test(value) ? `"${value.replace(/(["\\])/g, '\\$1')}"` : value);

/** The flags naming `d` (everything but the destination, which goes after `--`). */
export function destinationFlags(d: OpenSshDestination): string[] {
  return [
    ...(d.configFile ? ['-F', d.configFile] : []),
    ...(d.user ? ['-l', d.user] : []),
    ...(d.port ? ['-p', String(d.port)] : []),
    ...(d.identityFiles ?? []).flatMap((f) => ['-i', f]),
    ...(d.proxyJump ? ['-J', d.proxyJump] : []),
    ...(d.knownHosts ? ['-o', `UserKnownHostsFile=${configValue(d.knownHosts)}`] : []),
    ...(d.extraOptions ?? []).flatMap((o) => ['-o', o]),
  ];
}

/** The argv for `ssh FLAGS -- DESTINATION [COMMAND]`: `--` keeps a destination from being read as an option. */
export const sshArgv = (d: OpenSshDestination, flags: string[], command?: string): string[] => [
  ...destinationFlags(d),
  ...flags,
  '--',
  d.destination,
  ...(command === undefined ? [] : [command]),
];

/** `OpenSSH_9.2p1 Debian-2+deb12u10, OpenSSL 3.0.19` → [9, 2]. */
export function parseSshVersion(text: string): [number, number] | undefined {
  const m = /OpenSSH(?:_for_Windows)?_(\d+)\.(\d+)/.exec(text);
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

/** `ssh -W /path` (a UNIX socket on the far side) is in OpenSSH 9.4 and later; 9.2 accepts it and hangs. */
export const streamsToUnixSockets = (client: OpenSshClient) => client.version[0] > 9 || (client.version[0] === 9 && client.version[1] >= 4);

const cache = new Map<string, Promise<OpenSshClient>>();

/** The `ssh` on PATH and its version; rejects when there is none, or it is not OpenSSH. */
export function findOpenSsh(env: NodeJS.ProcessEnv = process.env): Promise<OpenSshClient> {
  const binary = findSshBinary(env);
  if (!binary) return Promise.reject(new Error('no ssh on PATH: install the OpenSSH client, or use the built-in transport (--ssh builtin)'));
  let found = cache.get(binary);
  if (!found) {
    found = new Promise((resolve, reject) => {
      execFile(binary, ['-V'], { env, timeout: 10_000 }, (err, stdout, stderr) => {
        const version = parseSshVersion(`${stderr}${stdout}`);
        if (version) return resolve({ binary, version, env });
        reject(new Error(`${binary} -V did not say it is OpenSSH (${(stderr || stdout || err?.message || '').trim()}); use the built-in transport (--ssh builtin)`));
      });
    });
    cache.set(binary, found);
  }
  return found;
}

/**
 * Runs ssh with `argv`. stdin is ours to pipe or ignore; a prompt opens /dev/tty itself (the CLI's
 * terminal), or goes to the askpass helper that `env` names.
 */
export function spawnSsh(client: OpenSshClient, argv: string[], stdin: 'pipe' | 'ignore' = 'pipe', env: Record<string, string> = {}, detached = false): ChildProcess {
  return spawn(client.binary, argv, { stdio: [stdin, 'pipe', 'pipe'], env: { ...client.env, ...env }, detached });
}

/**
 * Runs ssh to the end and gives its exit code and stderr (stdout too, for -O forward's allocations). With a
 * `signal` (a login, which the caller ends) ssh runs in a process group of its own: a master's ProxyCommand
 * (the `ssh -W` through a jump host's master) stays in the group ssh started in when the master goes to the
 * background, and a terminal's Ctrl-C to ours would end it, and the master, kept for the next run, with it.
 * On Windows `detached` opens a console instead, and there are no process groups to leave.
 */
export function runSsh(
  client: OpenSshClient,
  argv: string[],
  env: Record<string, string> = {},
  onStderr?: (line: string) => void,
  signal?: AbortSignal,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawnSsh(client, argv, 'ignore', env, !!signal && process.platform !== 'win32');
    // A login waiting on a prompt nobody will answer now (the node was closed) ends with the dial.
    const onAbort = () => child.kill('SIGTERM');
    signal?.addEventListener('abort', onAbort, { once: true });
    child.once('exit', () => signal?.removeEventListener('abort', onAbort));
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => {
      const text = d.toString();
      stderr += text;
      if (onStderr) for (const line of text.split(/\r?\n/)) if (line) onStderr(line);
    });
    child.once('error', (err) => resolve({ code: null, stdout, stderr: `${stderr}${err.message}` }));
    // 'exit', not 'close': a master ssh forks into the background (-f) and may keep the pipes open with -v.
    child.once('exit', (code) => {
      setImmediate(() => {
        child.stdout!.destroy();
        child.stderr!.destroy();
        resolve({ code, stdout, stderr });
      });
    });
  });
}
