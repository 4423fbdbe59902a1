import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../e2e/harness/run-command';
import { startSshHarness, type SshHarness } from '../../e2e/harness/ssh-harness';
import { pollUntil } from '../testing/poll-until';
import { openSshConnection, type SshTarget } from './ssh-connection';
import type { SshError } from './ssh-errors';
import { resolveSshTarget } from './ssh-target';
import { harnessTarget, scriptedPrompter } from './testing/ssh-test-kit';

describe('ssh_config settings beyond host keys (real sshd)', () => {
  let h: SshHarness;
  let config: string;

  beforeAll(async () => {
    h = await startSshHarness();
    config = join(h.dir, 'settings_config');
    writeFileSync(config, [
      'Host bound', '  BindAddress 127.0.0.2',
      'Host v6only', '  AddressFamily inet6',
      'Host oldcipher', '  Ciphers 3des-cbc',
      'Host khcommand', '  KnownHostsCommand /bin/echo %H',
      'Host canonical', '  CanonicalizeHostname yes',
      'Host shared', '  ControlMaster auto', '  ControlPath /tmp/%C',
      'Host rsaonly', '  PubkeyAcceptedAlgorithms rsa-sha2-512,rsa-sha2-256',
      'Host *',
      `  HostName ${h.host}`,
      `  Port ${h.port}`,
      '  User root',
      `  IdentityFile ${h.root.key}`,
      `  UserKnownHostsFile ${h.knownHosts}`,
      '  StrictHostKeyChecking yes',
      '',
    ].join('\n'));
  });
  afterAll(async () => h?.stop());

  const failure = (p: Promise<unknown>) => p.then(() => { throw new Error('expected a failure'); }, (e: unknown) => e as SshError);
  const connect = async (alias: string, evaluator: 'openssh' | 'builtin') => {
    const conn = await openSshConnection(await resolveSshTarget(alias, { configFile: config }, { evaluator }), { prompter: scriptedPrompter() });
    conn.close();
  };

  it.each(['openssh', 'builtin'] as const)('connects from the BindAddress (%s reader)', async (evaluator) => {
    const fromBound = () => h.logs().match(/Accepted publickey for root from 127\.0\.0\.2 /g)?.length ?? 0;
    const before = fromBound();
    await connect('bound', evaluator);
    // sshd's log reaches the harness a moment after the login.
    await pollUntil('sshd logs the login from 127.0.0.2', fromBound, (n) => n === before + 1);
  });

  it.each(['openssh', 'builtin'] as const)('refuses an IPv4 HostName under AddressFamily inet6, as ssh does (%s reader)', async (evaluator) => {
    const err = await failure(connect('v6only', evaluator));
    expect(err.message).toContain(`Could not resolve hostname ${h.host}: AddressFamily inet6`);
    expect((await runCommand('ssh', ['-F', config, '-o', 'BatchMode=yes', 'v6only', 'true'])).stderr).toContain('Could not resolve hostname');
  });

  it.each(['openssh', 'builtin'] as const)('offers only the configured Ciphers, so a server without them is refused as by ssh (%s reader)', async (evaluator) => {
    const err = await failure(connect('oldcipher', evaluator));
    expect(err.code).toBe('NO_COMMON_ALGORITHM');
    expect((await runCommand('ssh', ['-F', config, '-o', 'BatchMode=yes', 'oldcipher', 'true'])).stderr).toContain('no matching cipher found');
  });

  it.each(['openssh', 'builtin'] as const)('refuses KnownHostsCommand and CanonicalizeHostname, naming them (%s reader)', async (evaluator) => {
    for (const [alias, keyword] of [['khcommand', 'KnownHostsCommand'], ['canonical', 'CanonicalizeHostname']]) {
      const err = await failure(resolveSshTarget(alias!, { configFile: config }, { evaluator }));
      expect(err.code).toBe('NEEDS_OPENSSH');
      expect(err.message).toMatch(new RegExp(`^${keyword} .+ \\(ssh config for ${alias}\\) needs the OpenSSH transport`));
    }
  });

  it.each(['openssh', 'builtin'] as const)('does not offer an identity file whose type PubkeyAcceptedAlgorithms leaves out, as ssh (%s reader)', async (evaluator) => {
    const err = await failure(connect('rsaonly', evaluator));
    expect(err.code).toBe('AUTH_FAILED');
    expect(err.message).toContain(`${h.root.key}: key type ssh-ed25519 not in PubkeyAcceptedAlgorithms`);
    expect((await runCommand('ssh', ['-F', config, '-o', 'BatchMode=yes', 'rsaonly', 'true'])).code).not.toBe(0);
  });

  it('does not offer an agent key whose type PubkeyAcceptedAlgorithms leaves out', async () => {
    const sock = join(h.dir, 'agent.sock');
    const agent = spawn('ssh-agent', ['-D', '-a', sock], { stdio: 'ignore' });
    try {
      await pollUntil('ssh-agent listens', () => existsSync(sock));
      execFileSync('ssh-add', ['-q', h.root.key], { env: { ...process.env, SSH_AUTH_SOCK: sock }, stdio: 'ignore' });
      const agentConfig = join(h.dir, 'agent_config');
      writeFileSync(agentConfig, `Host *\n  HostName ${h.host}\n  Port ${h.port}\n  User root\n  IdentityAgent ${sock}\n  IdentityFile /nonexistent/key\n` +
        `  UserKnownHostsFile ${h.knownHosts}\n  StrictHostKeyChecking yes\nHost rsaonly\n  PubkeyAcceptedAlgorithms rsa-sha2-512,rsa-sha2-256\n`);
      const viaAgent = async (alias: string) => openSshConnection(await resolveSshTarget(alias, { configFile: agentConfig }), { prompter: scriptedPrompter() });
      (await viaAgent('any')).close();
      expect((await failure(viaAgent('rsaonly'))).code).toBe('AUTH_FAILED');
    } finally {
      agent.kill();
    }
  });

  it.each(['openssh', 'builtin'] as const)('says ControlMaster is not used, and connects (%s reader)', async (evaluator) => {
    const target = await resolveSshTarget('shared', { configFile: config }, { evaluator });
    expect(target.notices).toEqual([expect.stringMatching(/^shared: ControlMaster \S+ is not used by Nodescope's built-in SSH transport/)]);
    (await openSshConnection(target, { prompter: scriptedPrompter() })).close();
  });
});

describe('login and host features only OpenSSH has (real sshd trusting a user CA)', () => {
  let h: SshHarness;
  let keys: string;
  const keygen = (args: string[]) => execFileSync('ssh-keygen', ['-q', ...args], { stdio: 'ignore' });

  beforeAll(async () => {
    keys = mkdtempSync(join(tmpdir(), 'ns-certs-'));
    keygen(['-t', 'ed25519', '-N', '', '-f', join(keys, 'user_ca')]);
    // Keys the server knows only through their certificates.
    for (const name of ['beside', 'configured']) {
      keygen(['-t', 'ed25519', '-N', '', '-f', join(keys, name)]);
      keygen(['-s', join(keys, 'user_ca'), '-I', name, '-n', 'root', join(keys, `${name}.pub`)]);
    }
    renameSync(join(keys, 'configured-cert.pub'), join(keys, 'elsewhere-cert.pub'));
    // A FIDO key's public half (no authenticator here): type, key, application.
    const str = (b: Buffer) => Buffer.concat([Buffer.alloc(4, 0), b]).fill(b.length, 3, 4);
    const skBlob = Buffer.concat([str(Buffer.from('sk-ssh-ed25519@openssh.com')), str(Buffer.alloc(32, 7)), str(Buffer.from('ssh:'))]);
    writeFileSync(join(keys, 'id_ed25519_sk'), 'not readable without the authenticator\n');
    writeFileSync(join(keys, 'id_ed25519_sk.pub'), `sk-ssh-ed25519@openssh.com ${skBlob.toString('base64')} fido\n`);
    chmodSync(keys, 0o755);
    h = await startSshHarness({ sshdOptions: { TrustedUserCAKeys: join(keys, 'user_ca.pub') } });
  });
  afterAll(async () => {
    await h?.stop();
    rmSync(keys, { recursive: true, force: true });
  });

  const failure = (p: Promise<unknown>) => p.then(() => { throw new Error('expected a failure'); }, (e: unknown) => e as SshError);
  const login = (key: string, extra: Partial<SshTarget> = {}) => openSshConnection(harnessTarget(h, { name: 'root', key }, extra), { prompter: scriptedPrompter() });

  it('names a -cert.pub beside the key when the login fails, where ssh logs in with it', async () => {
    const key = join(keys, 'beside');
    const err = await failure(login(key));
    expect(err.code).toBe('NEEDS_OPENSSH');
    expect(err.message).toContain(`certificate ${key}-cert.pub: needs the OpenSSH transport`);
    const ssh = await runCommand('ssh', ['-F', '/dev/null', '-o', `UserKnownHostsFile=${h.knownHosts}`, '-o', 'BatchMode=yes', '-i', key, '-p', String(h.port), `root@${h.host}`, 'true']);
    expect(ssh.code, ssh.stderr).toBe(0);
  });

  it.each(['openssh', 'builtin'] as const)('names CertificateFile and GSSAPIAuthentication from ssh_config when the login fails (%s reader)', async (evaluator) => {
    const config = join(h.dir, `cert_config_${evaluator}`);
    writeFileSync(config, `Host certified\n  HostName ${h.host}\n  Port ${h.port}\n  User root\n  IdentityFile ${join(keys, 'configured')}\n` +
      `  CertificateFile ${join(keys, 'elsewhere-cert.pub')}\n  GSSAPIAuthentication yes\n  UserKnownHostsFile ${h.knownHosts}\n`);
    const err = await failure(resolveSshTarget('certified', { configFile: config }, { evaluator }).then((t) => openSshConnection(t, { prompter: scriptedPrompter() })));
    expect(err.code).toBe('NEEDS_OPENSSH');
    expect(err.message).toContain(`CertificateFile ${join(keys, 'elsewhere-cert.pub')}: needs the OpenSSH transport`);
    expect(err.message).toContain('GSSAPIAuthentication yes: needs the OpenSSH transport');
  });

  it('names a FIDO (sk-) key instead of reporting only the methods tried', async () => {
    const err = await failure(login(join(keys, 'id_ed25519_sk')));
    expect(err.code).toBe('NEEDS_OPENSSH');
    expect(err.message).toContain(`${join(keys, 'id_ed25519_sk')}: FIDO security key (sk-ssh-ed25519@openssh.com) needs the OpenSSH transport`);
  });

  it('refuses, without asking about the plain key, a host that known_hosts trusts through a @cert-authority', async () => {
    const kh = join(h.dir, 'ca_known_hosts');
    writeFileSync(kh, `@cert-authority [${h.host}]:${h.port} ${readFileSync(join(keys, 'user_ca.pub'), 'utf8')}`);
    const prompter = scriptedPrompter({ hostKey: ['remember'] });
    const err = await failure(openSshConnection(harnessTarget(h, h.root, { knownHostsFiles: [kh], strictHostKeyChecking: 'ask' }), { prompter }));
    expect(err.code).toBe('NEEDS_OPENSSH');
    expect(err.message).toMatch(/^@cert-authority host certificates \(ssh config for .*\) needs the OpenSSH transport/);
    expect(prompter.asked.hostKey).toEqual([]);
  });
});
