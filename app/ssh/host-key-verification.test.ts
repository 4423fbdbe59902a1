import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'ssh2';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCommand } from '../../e2e/harness/run-command';
import { startSshHarness, type SshHarness } from '../../e2e/harness/ssh-harness';
import { preferredHostKeyAlgorithms, orderHostKeyAlgorithms } from './host-key-algorithms';
import { defaultHopAlgorithms } from './ssh-algorithms';
import { fingerprintSha256 } from './host-key-fingerprint';
import { HostKeyError, hostKeyPolicy, verifyHostKey, type VerifyHostKeyOptions } from './host-key-verification';
import { resolveSshHost } from './ssh-config';
import type { HostKeyAnswer, HostKeyQuestion } from './ssh-prompter';

const blobOf = (line: string) => Buffer.from(line.split(' ')[1]!, 'base64');

/**
 * Connects with ssh2 as root, deciding the host key with verifyHostKey exactly as the connection
 * code does; resolves once authenticated, rejects with the verification error otherwise.
 */
function dial(h: SshHarness, policy: Omit<VerifyHostKeyOptions, 'blob' | 'host' | 'port'>, serverHostKey?: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const client = new Client();
    let offered: Buffer | undefined;
    let verifyError: unknown;
    client.on('ready', () => {
      client.end();
      resolve(offered!);
    });
    client.on('error', (err) => reject(verifyError ?? err));
    client.connect({
      host: h.host,
      port: h.port,
      username: 'root',
      privateKey: readFileSync(h.root.key),
      ...(serverHostKey ? { algorithms: { serverHostKey: serverHostKey as never } } : {}),
      hostVerifier: (blob: Buffer, verify: (ok: boolean) => void) => {
        offered = blob;
        verifyHostKey({ host: h.host, port: h.port, blob, ...policy }).then(
          () => verify(true),
          (err) => {
            verifyError = err;
            verify(false);
          },
        );
      },
    });
  });
}

async function expectHostKeyError(p: Promise<unknown>, code: HostKeyError['code']): Promise<HostKeyError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(HostKeyError);
  expect((err as HostKeyError).code).toBe(code);
  return err as HostKeyError;
}

describe('verifyHostKey against a real sshd', () => {
  let h: SshHarness;
  let file: (name: string, text?: string) => string;
  const targetName = () => `[${h.host}]:${h.port}`;

  beforeAll(async () => {
    h = await startSshHarness();
    file = (name, text) => {
      const p = join(h.dir, name);
      if (text !== undefined) writeFileSync(p, text);
      return p;
    };
  });
  afterAll(async () => h?.stop());

  it('accepts the pinned key without asking', async () => {
    const prompt = vi.fn<(q: HostKeyQuestion) => Promise<HostKeyAnswer>>();
    const offered = await dial(h, { files: [h.knownHosts], strict: 'ask', prompt });
    expect(offered.equals(blobOf(h.hostKeyLine))).toBe(true);
    expect(prompt).not.toHaveBeenCalled();
  });

  it('accepts known_hosts lines written by ssh-keyscan, plain and hashed', async () => {
    for (const hashFlag of [[], ['-H']]) {
      const scanned = await runCommand('ssh-keyscan', [...hashFlag, '-t', 'ed25519', '-p', String(h.port), h.host]);
      expect(scanned.stdout).toContain('ssh-ed25519');
      await dial(h, { files: [file(`scanned${hashFlag.join('')}`, scanned.stdout)], strict: 'yes' });
    }
  });

  it('refuses a changed key, naming both fingerprints and the ssh-keygen -R command that fixes it', async () => {
    const kh = file('changed_known_hosts', `# pinned earlier\n${targetName()} ${h.jumpHostKeyLine}\n`);
    const err = await expectHostKeyError(dial(h, { files: [kh], strict: 'no', prompt: async () => 'once' }), 'HOST_KEY_CHANGED');
    expect(err.message).toContain(fingerprintSha256(blobOf(h.hostKeyLine)));
    expect(err.message).toContain(fingerprintSha256(blobOf(h.jumpHostKeyLine)));
    expect(err.message).toContain(`${kh}:2`);
    // The command that fixes it is the next step, not buried in the cause.
    const fix = err.remedy.match(/ssh-keygen -R "([^"]+)" -f (\S+)$/);
    expect(fix?.slice(1)).toEqual([targetName(), kh]);
    execFileSync('ssh-keygen', ['-R', fix![1]!, '-f', fix![2]!], { stdio: 'ignore' });
    await expectHostKeyError(dial(h, { files: [kh], strict: 'yes' }), 'HOST_KEY_UNKNOWN');
  });

  it('refuses, as ssh does, a host known only by a key of another type instead of asking as for a new host', async () => {
    // A man in the middle with an ed25519 key, in front of a host known by its RSA key.
    const rsaKey = join(h.dir, 'other_rsa');
    execFileSync('ssh-keygen', ['-q', '-t', 'rsa', '-b', '2048', '-N', '', '-f', rsaKey]);
    const rsaLine = readFileSync(`${rsaKey}.pub`, 'utf8').split(' ').slice(0, 2).join(' ');
    const kh = file('rsa_known_hosts', `${targetName()} ${rsaLine}\n`);
    const prompt = vi.fn<(q: HostKeyQuestion) => Promise<HostKeyAnswer>>(async () => 'remember');
    const err = await expectHostKeyError(dial(h, { files: [kh], strict: 'ask', prompt }), 'HOST_KEY_CHANGED');
    expect(prompt).not.toHaveBeenCalled();
    expect(err.message).toContain(`ssh-ed25519 key (${fingerprintSha256(blobOf(h.hostKeyLine))})`);
    expect(err.message).toContain(`${kh}:1 has a ssh-rsa key (${fingerprintSha256(blobOf(rsaLine))})`);
    expect(err.remedy).toContain(`ssh-keygen -R "${targetName()}" -f ${kh}`);
    expect(readFileSync(kh, 'utf8')).toBe(`${targetName()} ${rsaLine}\n`);
    // The oracle: OpenSSH refuses this host too.
    const ssh = await runCommand('ssh', ['-F', '/dev/null', '-o', `UserKnownHostsFile=${kh}`, '-o', 'GlobalKnownHostsFile=/dev/null', '-o', 'StrictHostKeyChecking=ask', '-o', 'BatchMode=yes', '-i', h.root.key, '-p', String(h.port), `root@${h.host}`, 'true']);
    expect(ssh.stderr).toContain('REMOTE HOST IDENTIFICATION HAS CHANGED');
  });

  it('refuses an unknown key without asking when StrictHostKeyChecking is yes', async () => {
    const prompt = vi.fn<(q: HostKeyQuestion) => Promise<HostKeyAnswer>>();
    const kh = file('empty_known_hosts', '');
    const err = await expectHostKeyError(dial(h, { files: [kh], strict: true, prompt }), 'HOST_KEY_UNKNOWN');
    expect(prompt).not.toHaveBeenCalled();
    expect(err.message).toContain(fingerprintSha256(blobOf(h.hostKeyLine)));
    expect(err.remedy).toContain(`add the key to ${kh}`);
  });

  it('refuses an unknown key when there is nobody to ask', async () => {
    await expectHostKeyError(dial(h, { files: [file('none', '')], strict: 'ask' }), 'HOST_KEY_UNKNOWN');
  });

  it('asks about an unknown key even with accept-new or no, and connects once without writing', async () => {
    for (const strict of ['accept-new', 'no', false] as const) {
      const kh = file(`once_${String(strict)}`, '');
      const questions: HostKeyQuestion[] = [];
      await dial(h, { files: [kh], strict, prompt: async (q) => (questions.push(q), 'once') });
      expect(questions).toEqual([{ host: h.host, port: h.port, keyType: 'ssh-ed25519', fingerprint: fingerprintSha256(blobOf(h.hostKeyLine)) }]);
      expect(readFileSync(kh, 'utf8')).toBe('');
    }
  });

  it('remembers a key so that OpenSSH ssh then trusts it too, hashed when asked', async () => {
    for (const hash of [false, true]) {
      const kh = join(h.dir, `remembered_${hash}`, 'known_hosts');
      await dial(h, { files: [kh], strict: 'ask', hash, prompt: async () => 'remember' });
      expect(readFileSync(kh, 'utf8').includes(targetName())).toBe(!hash);
      const prompt = vi.fn<(q: HostKeyQuestion) => Promise<HostKeyAnswer>>();
      await dial(h, { files: [kh], strict: 'ask', prompt });
      expect(prompt).not.toHaveBeenCalled();
      const ssh = await runCommand('ssh', ['-F', '/dev/null', '-o', `UserKnownHostsFile=${kh}`, '-o', 'StrictHostKeyChecking=yes', '-o', 'BatchMode=yes', '-i', h.root.key, '-p', String(h.port), `root@${h.host}`, 'true']);
      expect(ssh.code, ssh.stderr).toBe(0);
    }
  });

  it('remembers into rememberIn, not the global file searched after it', async () => {
    const user = join(h.dir, 'user_kh');
    const global = file('global_kh', '');
    await dial(h, { files: [global], rememberIn: user, strict: 'ask', prompt: async () => 'remember' });
    expect(readFileSync(user, 'utf8')).toContain(h.hostKeyLine);
    expect(readFileSync(global, 'utf8')).toBe('');
  });

  it('stops when the user refuses', async () => {
    await expectHostKeyError(dial(h, { files: [file('refuse', '')], strict: 'ask', prompt: async () => 'refuse' }), 'HOST_KEY_REFUSED');
  });

  it('refuses a @revoked key even if it is also listed as known', async () => {
    const kh = file('revoked', `${targetName()} ${h.hostKeyLine}\n@revoked * ${h.hostKeyLine}\n`);
    const err = await expectHostKeyError(dial(h, { files: [kh], strict: 'no', prompt: async () => 'once' }), 'HOST_KEY_REVOKED');
    expect(err.message).toContain(`${kh}:2`);
  });

  it('looks a HostKeyAlias up verbatim, without the port', async () => {
    const kh = file('alias', `node-7 ${h.hostKeyLine}\n`);
    await dial(h, { files: [kh], hostKeyAlias: 'node-7', strict: 'yes' });
  });
});

describe('hostKeyPolicy', () => {
  let h: SshHarness;
  beforeAll(async () => {
    h = await startSshHarness();
  });
  afterAll(async () => h?.stop());

  it('turns a resolved ssh_config host into the verifyHostKey settings that connect', async () => {
    const policy = hostKeyPolicy(await resolveSshHost('target', { configFile: h.sshConfig }));
    expect(policy).toEqual({ host: h.host, port: h.port, files: [h.knownHosts, '/dev/null'], rememberIn: h.knownHosts, hash: false, strict: 'yes' });
    await dial(h, policy);
  });

  it('never asks when BatchMode is on, and remembers into the first user file, hashed when configured', async () => {
    const config = join(h.dir, 'policy_config');
    const userFile = join(h.dir, 'policy_user_kh');
    writeFileSync(config, `Host batch\n  BatchMode yes\nHost *\n  HostName ${h.host}\n  Port ${h.port}\n  StrictHostKeyChecking ask\n  HashKnownHosts yes\n  UserKnownHostsFile ${userFile} ${h.knownHosts}\n`);
    const batch = hostKeyPolicy(await resolveSshHost('batch', { configFile: config }));
    expect(batch.strict).toBe('yes');
    const ask = hostKeyPolicy(await resolveSshHost('asking', { configFile: config }));
    expect(ask).toMatchObject({ strict: 'ask', rememberIn: userFile, hash: true });
    await dial(h, { ...ask, files: [userFile], prompt: async () => 'remember' });
    expect(readFileSync(userFile, 'utf8')).toMatch(/^\|1\|\S+ ssh-ed25519 /);
  });
});

describe('preferredHostKeyAlgorithms against an sshd with RSA and ed25519 host keys', () => {
  let h: SshHarness;
  let rsaLine: string;

  beforeAll(async () => {
    h = await startSshHarness({ extraHostKeyTypes: ['rsa'] });
    rsaLine = h.hostKeyLines.find((l) => l.startsWith('ssh-rsa '))!;
  });
  afterAll(async () => h?.stop());

  it('makes a host known only by RSA negotiate RSA instead of looking changed', async () => {
    const kh = join(h.dir, 'rsa_only');
    writeFileSync(kh, `[${h.host}]:${h.port} ${rsaLine}\n`);
    const err = await expectHostKeyError(dial(h, { files: [kh], strict: 'yes' }), 'HOST_KEY_CHANGED');
    expect(err.message).toMatch(/rsa_only:1 has a ssh-rsa key \(SHA256:\S+\)/);

    const algorithms = await preferredHostKeyAlgorithms({ host: h.host, port: h.port, files: [kh], allowed: defaultHopAlgorithms().serverHostKey });
    // SHA-1 ssh-rsa stays out, as in ssh 8.8+.
    expect(algorithms.slice(0, 3)).toEqual(['rsa-sha2-512', 'rsa-sha2-256', 'ssh-ed25519']);
    const offered = await dial(h, { files: [kh], strict: 'yes' }, algorithms);
    expect(offered.equals(blobOf(rsaLine))).toBe(true);
  });

  it('keeps OpenSSH\'s default order (without SHA-1 ssh-rsa) when nothing is known, and drops types ssh2 cannot use', () => {
    const allowed = defaultHopAlgorithms().serverHostKey;
    expect(orderHostKeyAlgorithms([], allowed)).toEqual(['ssh-ed25519', 'ecdsa-sha2-nistp256', 'ecdsa-sha2-nistp384', 'ecdsa-sha2-nistp521', 'rsa-sha2-512', 'rsa-sha2-256']);
    expect(orderHostKeyAlgorithms(['sk-ssh-ed25519@openssh.com', 'ecdsa-sha2-nistp384'], allowed)[0]).toBe('ecdsa-sha2-nistp384');
  });
});
