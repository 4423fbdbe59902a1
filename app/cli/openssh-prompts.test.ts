// `nodescope --ssh openssh` on a terminal: ssh's questions come through askpass to the CLI's terminal prompter,
// and its refusals are Nodescope's messages and exit codes. script(1) gives the CLI a pty (run-nodescope).
import { readFile, writeFile } from 'node:fs/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSshHarness, type SshHarness } from '../../e2e/harness/ssh-harness';
import { startSimulatedKubelet } from '../sim/kubelet-server';
import { EXIT } from './exit-codes';
import { nodescope } from './testing/run-nodescope';

describe('nodescope --ssh openssh on a terminal (real ssh and sshd)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'nodescope-openssh-cli-'));
  let h: SshHarness;
  let configs = 0;

  beforeAll(async () => {
    h = await startSshHarness({ startKubelet: (socketPath) => startSimulatedKubelet({ socketPath, pods: 5, seed: 3 }) });
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A config of its own per run (so a ControlMaster of its own: nothing is logged in already). */
  async function config(lines: string[]): Promise<string> {
    const file = join(dir, `config-${configs++}`);
    await writeFile(file, ['Host node', `  HostName ${h.host}`, `  Port ${h.port}`, '  IdentitiesOnly yes', '  IdentityAgent none', '  GlobalKnownHostsFile /dev/null',
      ...lines.map((l) => `  ${l}`), ''].join('\n'), { mode: 0o600 });
    return file;
  }

  const pods = (configFile: string, answers: [RegExp, string][]) =>
    nodescope(['pods', 'node', '-F', configFile, '--ssh', 'openssh', '--socket', h.socketPath], { tty: { answers } });

  it('asks about an unknown host on the terminal; "yes" lets ssh log in and remember the key', async () => {
    const knownHosts = join(dir, 'new_known_hosts');
    await writeFile(knownHosts, '', { mode: 0o600 });
    const r = await pods(await config(['User root', `IdentityFile ${h.root.key}`, `UserKnownHostsFile ${knownHosts}`, 'StrictHostKeyChecking ask']), [[/Continue connecting\?/, 'yes']]);
    expect(r.stdout).toContain(`The authenticity of host '[${h.host}]:${h.port}' can't be established.`);
    // ssh records what it accepts: the question says so and offers no "once".
    expect(r.stdout).toContain('Continue connecting? ssh records the key in known_hosts (yes / no): ');
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/NAMESPACE\s+NAME\s+READY/);
    // ssh itself wrote known_hosts, as its config says.
    expect(await readFile(knownHosts, 'utf8')).toContain(h.hostKeyLine.split(' ')[1]);
  });

  it('asks for a key passphrase on the terminal without echoing it, and ssh logs in', async () => {
    const r = await pods(await config([`User ${h.operator.name}`, `IdentityFile ${h.operator.encryptedKey}`, `UserKnownHostsFile ${h.knownHosts}`]),
      [[/Enter passphrase for key/, h.operator.passphrase]]);
    expect(r.stdout).toContain(`Enter passphrase for key '${h.operator.encryptedKey}': `);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/NAMESPACE\s+NAME\s+READY/);
    expect(r.stdout).not.toContain(h.operator.passphrase);
  });

  it('refuses a changed host key with the classified message and exit 3, asking nothing', async () => {
    const knownHosts = join(dir, 'changed_known_hosts');
    await writeFile(knownHosts, `[${h.host}]:${h.port} ${h.jumpHostKeyLine}\n`, { mode: 0o600 });
    const r = await pods(await config(['User root', `IdentityFile ${h.root.key}`, `UserKnownHostsFile ${knownHosts}`, 'StrictHostKeyChecking ask']), []);
    expect(r.code).toBe(EXIT.connection);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain(`The host key for [${h.host}]:${h.port} has CHANGED (${knownHosts}:1 has a ED25519 key for it); ssh refused to connect.`);
    expect(r.stdout).toContain(`ssh-keygen -R "[${h.host}]:${h.port}" -f ${knownHosts}`);
    expect(r.stdout).not.toMatch(/can't be established|Continue connecting|yes\/no/);
  });
});
