import { writeFile } from 'node:fs/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certAuthorityLine, createCa, signKey, writeKrl, type SshCa } from '../../../e2e/harness/ssh-ca';
import { startSshHarness, type SshHarness } from '../../../e2e/harness/ssh-harness';
import { generateKey } from '../../../e2e/harness/ssh-keys';
import { canPassByWaiting } from '../../kubelet/kubelet-error';
import { pollUntil } from '../../testing/poll-until';
import { runRemote } from '../remote-exec';
import type { SshError } from '../ssh-errors';
import { scriptedPrompter } from '../testing/ssh-test-kit';
import { createOpenSshSession } from './openssh-session';

/**
 * What the user's ssh trusts and refuses holds through the OpenSSH transport (real ssh, real sshd): SSH CAs
 * both ways, a KRL, a changed host key; and its refusals come out as Nodescope's errors, with the retry
 * decision the built-in transport's would get.
 */
describe('the OpenSSH transport: certificates, KRLs and host keys', () => {
  const dir = mkdtempSync(join(tmpdir(), 'nodescope-openssh-trust-'));
  let hostCa: SshCa;
  let userCa: SshCa;
  let h: SshHarness;
  let userKey: string;
  let configs = 0;

  beforeAll(async () => {
    [hostCa, userCa] = await Promise.all([createCa(dir, 'host_ca'), createCa(dir, 'user_ca')]);
    userKey = join(dir, 'certified_user');
    await generateKey(userKey, 'certified-user');
    await signKey(userCa, userKey, { identity: 'certified-root', principals: ['root'] });
    h = await startSshHarness({ hostCertificateCa: hostCa, sshdOptions: { TrustedUserCAKeys: userCa.publicKeyFile } });
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A config of its own per test (and so a ControlMaster of its own): `lines` under Host node. */
  async function sessionTo(lines: string[], port = h.port) {
    const config = join(dir, `config-${configs++}`);
    await writeFile(config, ['Host node', `  HostName ${h.host}`, `  Port ${port}`, '  User root', '  IdentitiesOnly yes', '  IdentityAgent none',
      '  GlobalKnownHostsFile /dev/null', ...lines.map((l) => `  ${l}`), ''].join('\n'), { mode: 0o600 });
    return (await createOpenSshSession({ destination: 'node', configFile: config }, { prompter: scriptedPrompter() })).session;
  }

  async function knownHosts(name: string, line: string) {
    const file = join(dir, name);
    await writeFile(file, `${line}\n`, { mode: 0o600 });
    return file;
  }

  const whoAmI = async (lines: string[]) => {
    const session = await sessionTo(lines);
    try {
      return (await runRemote((await session.connection()).channels, 'id -un')).stdout.trim();
    } finally {
      session.close();
    }
  };

  it('logs in with a user certificate (CertificateFile) that sshd trusts through TrustedUserCAKeys', async () => {
    const user = await whoAmI([`IdentityFile ${userKey}`, `CertificateFile ${userKey}-cert.pub`, `UserKnownHostsFile ${h.knownHosts}`, 'StrictHostKeyChecking yes']);
    expect(user).toBe('root');
    expect(h.logs()).toMatch(/Accepted publickey for root .* ED25519-CERT .* ID certified-root/);
  });

  it('trusts a host known only through its @cert-authority line', async () => {
    const file = await knownHosts('ca_known_hosts', certAuthorityLine(`[${h.host}]:${h.port}`, hostCa));
    expect(await whoAmI([`IdentityFile ${h.root.key}`, `UserKnownHostsFile ${file}`, 'StrictHostKeyChecking yes'])).toBe('root');
  });

  /** The failed dial's error, and the session's state after it. */
  async function refusal(lines: string[], port?: number): Promise<{ error: SshError; state: string }> {
    const session = await sessionTo(lines, port);
    try {
      const error = await session.connection().then(() => {
        throw new Error('connected, though ssh should have refused');
      }, (e: SshError) => e);
      return { error, state: session.state().state };
    } finally {
      session.close();
    }
  }

  it("refuses a host key revoked in a KRL (RevokedHostKeys) with Nodescope's message, and does not retry", async () => {
    const krl = await writeKrl(join(dir, 'host.krl'), [h.hostKeyLine]);
    const { error, state } = await refusal([`IdentityFile ${h.root.key}`, `UserKnownHostsFile ${h.knownHosts}`, `RevokedHostKeys ${krl}`]);
    expect(error).toMatchObject({ code: 'HOST_KEY_REJECTED', message: expect.stringContaining(`is revoked by ${krl} (RevokedHostKeys)`) });
    expect(canPassByWaiting(error, true)).toBe(false);
    expect(state).toBe('error');
  });

  it('refuses a changed host key, saying which known_hosts line and how to remove it, and does not retry', async () => {
    const file = await knownHosts('changed_known_hosts', `[${h.host}]:${h.port} ${h.jumpHostKeyLine}`);
    const { error, state } = await refusal([`IdentityFile ${h.root.key}`, `UserKnownHostsFile ${file}`]);
    expect(error).toMatchObject({ code: 'HOST_KEY_REJECTED', message: expect.stringContaining(`(${file}:1 has a ED25519 key for it)`) });
    expect(error.nextStep).toContain(`ssh-keygen -R "[${h.host}]:${h.port}" -f ${file}`);
    expect(canPassByWaiting(error, true)).toBe(false);
    expect(state).toBe('error');
  });

  it('refuses a login sshd denies, naming the methods left, and does not retry', async () => {
    const { error, state } = await refusal([`IdentityFile ${h.noSudo.key}`, `UserKnownHostsFile ${h.knownHosts}`, 'BatchMode yes']);
    expect(error).toMatchObject({ code: 'AUTH_FAILED', message: expect.stringContaining(`Authentication failed for root@${h.host} (ssh tried; the server still accepts: publickey)`) });
    expect(canPassByWaiting(error, false)).toBe(false);
    expect(state).toBe('error');
  });

  it('retries a refused connection', async () => {
    // A port nothing listens on: taken and let go again.
    const free = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, h.host, () => {
        const { port } = s.address() as { port: number };
        s.close(() => resolve(port));
      });
    });
    const session = await sessionTo([`IdentityFile ${h.root.key}`, `UserKnownHostsFile ${h.knownHosts}`], free);
    try {
      const error = await session.connection().catch((e: SshError) => e);
      expect(error).toMatchObject({ code: 'HOST_UNREACHABLE', message: `Connection refused by ${h.host}:${free}` });
      expect(canPassByWaiting(error as SshError, false)).toBe(true);
      await pollUntil('the session to wait for its next dial', () => session.state().state === 'reconnecting');
    } finally {
      session.close();
    }
  });
});
