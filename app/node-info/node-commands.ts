/**
 * Every command `nodescope node` runs on a node, in one place: each is fixed (its words come from
 * Nodescope, the node's own kubelet command line and config, or the user's flags; never from pod data),
 * an argv array, and read-only. docs/node-info.md lists them.
 */
import { RemoteRunError } from '../ssh/remote-exec';
import { commandLine, type CommandRunner, type RunOptions } from './command-runner';
import { KUBELET_UNITS } from './kubelet-journal';
import { PartError } from './node-context';

/** Where the programs are; a node may keep crictl elsewhere (RKE2: /var/lib/rancher/rke2/bin/crictl). */
export interface NodePrograms {
  crictl: string;
  journalctl: string;
  systemctl: string;
  pgrep: string;
  cat: string;
}

export const DEFAULT_PROGRAMS: NodePrograms = { crictl: 'crictl', journalctl: 'journalctl', systemctl: 'systemctl', pgrep: 'pgrep', cat: 'cat' };

/** The most a config file, /proc cmdline, or the crictl container list may print: far above any real one. */
export const CONFIG_MAX_BYTES = 1 << 20;
export const CONTAINER_LIST_MAX_BYTES = 64 << 20;

export const nodeCommands = (p: NodePrograms, journalLines: number) => ({
  /** The oldest process named exactly kubelet: the node's kubelet, not a kubectl or a grep. */
  findKubelet: [p.pgrep, '-o', '-x', 'kubelet'],
  cmdline: (pid: number) => [p.cat, '--', `/proc/${pid}/cmdline`],
  readFile: (path: string) => [p.cat, '--', path],
  version: (binary: string) => [binary, '--version'],
  crictl: (endpoint: string | undefined, ...args: string[]) => [p.crictl, ...(endpoint ? ['--runtime-endpoint', endpoint] : []), ...args],
  units: [p.systemctl, 'show', '--property=Id,LoadState,ActiveState,SubState', ...KUBELET_UNITS],
  journal: (unit: string) => [p.journalctl, '-u', unit, '-n', String(journalLines), '--no-pager', '-o', 'short-iso'],
  /** The same last lines, then each new one until stopped: the panel's Follow, without a gap after its tail. */
  journalFollow: (unit: string) => [p.journalctl, '-u', unit, '-f', '-n', String(journalLines), '--no-pager', '-o', 'short-iso'],
});

/** Why a command failed, in words, and the next step. */
function failure(line: string, code: number | null, stderr: string): PartError {
  const said = stderr.trim().split('\n').slice(-3).join(' ') || `exit code ${code ?? '(killed)'}`;
  const program = line.split(' ').find((w) => w !== 'sudo' && w !== '-n') ?? line;
  if (code === 127 || /command not found|^(bash|sh|zsh|-?\w*sh): .*: No such file or directory/.test(said)) {
    return new PartError(`\`${line}\` failed on the node: ${said}`, `${program} is not installed on the node, or not on the PATH of a non-interactive SSH login; give its path (see nodescope node --help).`);
  }
  if (/a password is required|not in the sudoers|may not run sudo/i.test(said)) {
    return new PartError(`\`${line}\` failed on the node: ${said}`, `sudoers on the node must allow \`${line}\` without a password (NOPASSWD), or log in as root.`);
  }
  if (/permission denied|not permitted|operation not permitted/i.test(said)) {
    return new PartError(`\`${line}\` failed on the node: ${said}`, 'This needs root on the node: log in as root, or give --sudo (sudoers must allow the command without a password).');
  }
  return new PartError(`\`${line}\` failed on the node: ${said}`, 'Run the same command on the node to see what it says.');
}

/** Runs a fixed command; its stdout, or a PartError saying why not. */
export async function runFixed(runner: CommandRunner, argv: readonly string[], options: RunOptions = {}): Promise<string> {
  return (await runChecked(runner, argv, options)).stdout;
}

/** Runs a fixed command; its stdout and stderr when it succeeded, or a PartError saying why not. */
export async function runChecked(runner: CommandRunner, argv: readonly string[], options: RunOptions = {}): Promise<{ stdout: string; stderr: string }> {
  const line = commandLine(argv, options);
  let r;
  try {
    r = await runner.run(argv, options);
  } catch (err) {
    if (err instanceof RemoteRunError) {
      throw new PartError(`\`${line}\` on the node: ${err.message}`,
        err.code === 'TOO_MUCH_OUTPUT' ? 'Check that the path is a regular file (ls -l on the node), not a device or a FIFO.' : 'Run the same command on the node to see where it hangs.');
    }
    throw err;
  }
  if (r.code !== 0) throw failure(line, r.code, r.stderr);
  return { stdout: r.stdout, stderr: r.stderr };
}
