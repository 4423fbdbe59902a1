import { writeFile } from 'node:fs/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSshConnection } from '../../app/ssh/ssh-connection';
import type { SshError } from '../../app/ssh/ssh-errors';
import { harnessTarget, scriptedPrompter } from '../../app/ssh/testing/ssh-test-kit';
import { runCommand } from './run-command';
import { certAuthorityLine, createCa, signKey, writeKrl, type SshCa } from './ssh-ca';
import { startSshHarness, type SshHarness } from './ssh-harness';
import { generateKey } from './ssh-keys';

/**
 * The CA and KRL fixtures against real sshd: what OpenSSH's ssh accepts (a host certificate through
 * `@cert-authority`, a user certificate through TrustedUserCAKeys) and refuses (a host key in a KRL), and
 * that the built-in transport refuses, without asking, what it cannot check as ssh does.
 */
describe('SSH CA and KRL fixtures (real sshd, real ssh)', () => {
  const caDir = mkdtempSync(join(tmpdir(), 'nodescope-ca-'));
  let hostCa: SshCa;
  let userCa: SshCa;
  let h: SshHarness;
  let userKey: string;

  beforeAll(async () => {
    [hostCa, userCa] = await Promise.all([createCa(caDir, 'host_ca'), createCa(caDir, 'user_ca')]);
    userKey = join(caDir, 'certified_user');
    await generateKey(userKey, 'certified-user');
    await signKey(userCa, userKey, { identity: 'certified-root', principals: ['root'] });
    h = await startSshHarness({ hostCertificateCa: hostCa, sshdOptions: { TrustedUserCAKeys: userCa.publicKeyFile } });
  });
  afterAll(async () => {
    await h?.stop();
    rmSync(caDir, { recursive: true, force: true });
  });

  const ssh = (options: string[]) =>
    runCommand('ssh', ['-F', '/dev/null', '-p', String(h.port), '-l', 'root', ...options.flatMap((o) => ['-o', o]), '-o', 'BatchMode=yes',
      '-o', 'IdentitiesOnly=yes', '-o', 'IdentityAgent=none', '-o', 'GlobalKnownHostsFile=/dev/null', h.host, 'echo', 'in']);
  const caKnownHosts = async () => {
    const file = join(h.dir, 'ca_known_hosts');
    await writeFile(file, `${certAuthorityLine(`[${h.host}]:${h.port}`, hostCa)}\n`, { mode: 0o600 });
    return file;
  };

  it('ssh trusts the host through its @cert-authority line alone, with strict checking', async () => {
    const r = await ssh([`UserKnownHostsFile=${await caKnownHosts()}`, 'StrictHostKeyChecking=yes', `IdentityFile=${h.root.key}`]);
    expect(r.stderr).not.toContain('verification failed');
    expect(r.stdout).toBe('in\n');
  });

  it('ssh logs in with a user certificate (CertificateFile) that sshd trusts through TrustedUserCAKeys', async () => {
    const r = await ssh([`UserKnownHostsFile=${h.knownHosts}`, `IdentityFile=${userKey}`, `CertificateFile=${userKey}-cert.pub`]);
    expect(r.stdout, r.stderr).toBe('in\n');
  });

  it('ssh refuses a host key listed in a KRL (RevokedHostKeys)', async () => {
    const krl = await writeKrl(join(h.dir, 'host.krl'), [h.hostKeyLine]);
    const r = await ssh([`UserKnownHostsFile=${h.knownHosts}`, `IdentityFile=${h.root.key}`, `RevokedHostKeys=${krl}`]);
    expect(r.code).toBe(255);
    expect(r.stderr).toContain(`revoked by file ${krl}`);
  });

  it('the built-in transport refuses the @cert-authority host without asking about its plain key', async () => {
    const prompter = scriptedPrompter({ hostKey: ['remember'] });
    const err = (await openSshConnection(harnessTarget(h, h.root, { knownHostsFiles: [await caKnownHosts()], strictHostKeyChecking: 'ask' }), { prompter })
      .then(() => new Error('connected'), (e: unknown) => e)) as SshError;
    expect(err.code).toBe('NEEDS_OPENSSH');
    expect(prompter.asked.hostKey).toEqual([]);
  });

  it('the built-in transport names the user certificate it cannot present, instead of blaming the key', async () => {
    const err = (await openSshConnection(harnessTarget(h, { name: 'root', key: userKey }), { prompter: scriptedPrompter() })
      .then(() => new Error('connected'), (e: unknown) => e)) as SshError;
    expect(err.code).toBe('NEEDS_OPENSSH');
    expect(err.message).toContain(`certificate ${userKey}-cert.pub: needs the OpenSSH transport`);
  });
});
