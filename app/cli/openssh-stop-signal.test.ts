// `nodescope --ssh openssh` stopped by `kill PID` (a supervisor's SIGTERM: the CLI's process alone, not its group)
// while ssh logs in: the login's ssh, and the `ssh -W` through a jump host's master, go with it. Stopped by Ctrl-C
// on its terminal (the whole process group) once logged in, the masters stay for the next run.
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSshHarness, type SshHarness } from '../../e2e/harness/ssh-harness';
import { startSimulatedKubelet } from '../sim/kubelet-server';
import { startSilentAuthSshd, type SilentAuthSshd } from '../ssh/testing/silent-auth-sshd';
import { pollUntil } from '../testing/poll-until';
import { nodescope } from './testing/run-nodescope';

/** Live processes whose environment holds `marker` (set for one CLI run, inherited by its ssh), with their command lines. */
function processesMarked(marker: string): { pid: number; cmd: string }[] {
  const found: { pid: number; cmd: string }[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (!readFileSync(`/proc/${pid}/environ`, 'latin1').includes(marker)) continue;
      found.push({ pid: Number(pid), cmd: readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').join(' ').trim() });
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/** Polls until every process of the run is one `stays` allows (none by default); then ends what is left, test passed or not. */
async function untilOnlyLeft(marker: string, stays: (cmd: string) => boolean = () => false): Promise<void> {
  try {
    await pollUntil('no ssh of the run left but those that stay', () => processesMarked(marker), (left) => left.every((p) => stays(p.cmd)));
  } finally {
    for (const p of processesMarked(marker)) process.kill(p.pid, 'SIGTERM');
  }
}

describe('nodescope --ssh openssh stopped by a signal (real ssh and sshd)', () => {
  let h: SshHarness;
  let silent: SilentAuthSshd;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'nodescope-openssh-stop-'));
    h = await startSshHarness({ startKubelet: (socketPath) => startSimulatedKubelet({ socketPath, pods: 3, seed: 3 }) });
    silent = await startSilentAuthSshd(h.host);
  }, 60_000);
  afterAll(async () => {
    await silent?.stop();
    await h?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  /** Runs `pods node` with `config` until ssh is logging in to the silent sshd, then SIGTERMs the CLI alone (or types Ctrl-C on its terminal). */
  async function stoppedWhileLoggingIn(name: string, config: string[], stop: 'SIGTERM' | 'Ctrl-C' = 'SIGTERM'): Promise<{ atSignal: string[]; marker: string }> {
    const runtime = await mkdtemp(join(dir, 'run-'));
    const knownHosts = join(dir, `${name}_known_hosts`);
    await writeFile(knownHosts, `${await readFile(h.knownHosts, 'utf8')}[${silent.host}]:${silent.port} ${silent.hostKeyLine}\n`);
    const file = join(dir, name);
    await writeFile(file, [...config, '  User root', `  IdentityFile ${h.root.key}`, `  UserKnownHostsFile ${knownHosts}`, '  IdentitiesOnly yes', '  IdentityAgent none',
      // Long enough that only the signal ends the login (ssh's keepalives also hold it: 5 s x 3 by default).
      '  ConnectTimeout 120', '  ServerAliveInterval 60', ''].join('\n'), { mode: 0o600 });
    const marker = `NODESCOPE_STOP_TEST=${randomUUID()}`;
    let atSignal: string[] = [];
    const run = await nodescope(['pods', 'node', '-F', file, '--ssh', 'openssh', '-vv'], {
      // A control directory of its own (XDG_RUNTIME_DIR): no master of another test or run is reused.
      env: { NODESCOPE_STOP_TEST: marker.split('=')[1], XDG_RUNTIME_DIR: runtime },
      ...(stop === 'SIGTERM' ? { signal: 'SIGTERM' as const } : { tty: { answers: [] } }),
      until: (out, err) => {
        // On a terminal, stderr comes with stdout.
        if (!`${out}${err}`.includes(`Authenticating to ${silent.host}:${silent.port}`)) return false;
        atSignal = processesMarked(marker).map((p) => p.cmd);
        return true;
      },
    });
    expect(run.code, run.stderr).not.toBe(0);
    return { atSignal, marker };
  }

  it('ends the login\'s ssh', async () => {
    const { atSignal, marker } = await stoppedWhileLoggingIn('direct.config', ['Host node', `  HostName ${silent.host}`, `  Port ${silent.port}`]);
    expect(atSignal.some((c) => c.includes(' -M -N -f '))).toBe(true);
    await untilOnlyLeft(marker);
  }, 30_000);

  it('ends the login\'s ssh, in a process group of its own, at Ctrl-C on the terminal', async () => {
    const { atSignal, marker } = await stoppedWhileLoggingIn('ctrl-c-login.config', ['Host node', `  HostName ${silent.host}`, `  Port ${silent.port}`], 'Ctrl-C');
    expect(atSignal.some((c) => c.includes(' -M -N -f '))).toBe(true);
    await untilOnlyLeft(marker);
  }, 30_000);

  it('ends the login\'s ssh and its ssh -W through the jump host\'s master', async () => {
    const { atSignal, marker } = await stoppedWhileLoggingIn('jump.config', [
      'Host jump', `  HostName ${h.host}`, `  Port ${h.jumpPort}`, `  User ${h.jump.name}`, `  IdentityFile ${h.jump.key}`, `  UserKnownHostsFile ${h.knownHosts}`,
      'Host node', `  HostName ${silent.host}`, `  Port ${silent.port}`, '  ProxyJump jump',
    ]);
    expect(atSignal.some((c) => c.includes(' -W '))).toBe(true);
    // The jump host's master logged in, and stays for the next run (ControlPersist), as it would have without the signal.
    const jumpMaster = (cmd: string) => cmd.includes(' -M -N -f ') && cmd.endsWith('-- jump');
    await untilOnlyLeft(marker, jumpMaster);
  }, 30_000);

  it('keeps the node\'s master through a jump host for the next run when Ctrl-C on the terminal stops a run', async () => {
    const runtime = await mkdtemp(join(dir, 'run-'));
    const file = join(dir, 'ctrl-c.config');
    await writeFile(file, [
      'Host jump', `  HostName ${h.host}`, `  Port ${h.jumpPort}`, `  User ${h.jump.name}`, `  IdentityFile ${h.jump.key}`,
      'Host node', `  HostName ${h.host}`, `  Port ${h.port}`, '  ProxyJump jump', '  User root', `  IdentityFile ${h.root.key}`,
      'Host *', `  UserKnownHostsFile ${h.knownHosts}`, '  IdentitiesOnly yes', '  IdentityAgent none', '',
    ].join('\n'), { mode: 0o600 });
    const marker = `NODESCOPE_STOP_TEST=${randomUUID()}`;
    const env = { NODESCOPE_STOP_TEST: marker.split('=')[1], XDG_RUNTIME_DIR: runtime };
    try {
      const watched = await nodescope(['watch', 'node', '-F', file, '--ssh', 'openssh', '--socket', h.socketPath], { tty: { answers: [] }, env, until: (out) => out.includes('in sync') });
      expect(watched.stdout).toContain('in sync');
      // The node's master lives on through its ProxyCommand (ssh -W through the jump host's master), which the
      // terminal's Ctrl-C must not have reached.
      const next = await nodescope(['pods', 'node', '-F', file, '--ssh', 'openssh', '--socket', h.socketPath, '-v'], { env });
      expect(next.code, next.stderr).toBe(0);
      expect(next.stderr).toContain(`root@${h.host}:${h.port}: reusing the login of Nodescope's master`);
    } finally {
      for (const p of processesMarked(marker)) process.kill(p.pid, 'SIGTERM');
    }
  }, 30_000);
});
