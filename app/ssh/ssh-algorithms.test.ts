import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../e2e/harness/run-command';
import { startSshHarness, type SshHarness } from '../../e2e/harness/ssh-harness';
import { ALGORITHM_KEYWORDS, assembleAlgorithms, defaultHopAlgorithms, hopAlgorithms, type AlgorithmKeyword, type OpenSshAlgorithms } from './ssh-algorithms';
import { openSshConnection } from './ssh-connection';
import type { SshError } from './ssh-errors';
import { resolveSshTarget } from './ssh-target';
import { harnessTarget, scriptedPrompter } from './testing/ssh-test-kit';

const KEYWORD_OPTION: Record<AlgorithmKeyword, string> = {
  hostkeyalgorithms: 'HostKeyAlgorithms',
  kexalgorithms: 'KexAlgorithms',
  ciphers: 'Ciphers',
  macs: 'MACs',
  pubkeyacceptedalgorithms: 'PubkeyAcceptedAlgorithms',
};

/** The oracle: what `ssh -G` makes of one option, or its complaint. */
async function sshG(keyword: AlgorithmKeyword, value?: string): Promise<string[] | Error> {
  const option = value === undefined ? [] : ['-o', `${KEYWORD_OPTION[keyword]}=${value}`];
  const r = await runCommand('ssh', ['-G', '-F', '/dev/null', ...option, 'example']);
  if (r.code !== 0) return new Error(r.stderr);
  const line = r.stdout.split('\n').find((l) => l.startsWith(`${keyword} `))!;
  return line.slice(keyword.length + 1).split(',');
}

const failure = (p: Promise<unknown>) => p.then(() => { throw new Error('expected a failure'); }, (e: unknown) => e as SshError);

describe('assembleAlgorithms (the built-in config reader) against ssh -G', () => {
  const cases: [AlgorithmKeyword, string | undefined][] = [
    ...ALGORITHM_KEYWORDS.map((k): [AlgorithmKeyword, undefined] => [k, undefined]),
    ['hostkeyalgorithms', 'ssh-ed25519'],
    ['hostkeyalgorithms', '+ssh-rsa'],
    ['hostkeyalgorithms', '-ssh-ed25519*,ecdsa*'],
    ['hostkeyalgorithms', '^ssh-rsa,ssh-dss'],
    ['hostkeyalgorithms', 'ssh-ed25519*'],
    ['hostkeyalgorithms', 'rsa-sha2-512,ssh-ed25519,rsa-sha2-512'],
    ['pubkeyacceptedalgorithms', '+ssh-rsa'],
    ['ciphers', 'aes256-ctr'],
    ['ciphers', '-chacha20-poly1305@openssh.com'],
    ['ciphers', '+aes128-cbc'],
    ['macs', '^hmac-sha1'],
    ['kexalgorithms', '-sntrup*'],
    ['kexalgorithms', 'curve25519-sha256,diffie-hellman-group14-sha1'],
  ];
  it.each(cases)('%s %s', async (keyword, value) => {
    expect(assembleAlgorithms(keyword, value)).toEqual(await sshG(keyword, value));
  });

  it.each([['hostkeyalgorithms', 'foo*'], ['ciphers', 'aes*'], ['macs', 'hmac-sha1,bar'], ['kexalgorithms', '+foo']] as const)(
    'refuses %s %s as ssh does',
    async (keyword, value) => {
      expect(await sshG(keyword, value)).toBeInstanceOf(Error);
      expect(() => assembleAlgorithms(keyword, value)).toThrow(/^Bad (key types|SSH2 [A-Za-z]+( spec)?) /);
    },
  );
});

describe('hopAlgorithms', () => {
  const lists = (over: Partial<OpenSshAlgorithms>): OpenSshAlgorithms =>
    ({ ...Object.fromEntries(ALGORITHM_KEYWORDS.map((k) => [k, assembleAlgorithms(k, undefined)])), ...over }) as OpenSshAlgorithms;

  it('offers only what both ssh allows and ssh2 implements, in ssh\'s order: no SHA-1 ssh-rsa by default', () => {
    expect(defaultHopAlgorithms().serverHostKey).toEqual(['ssh-ed25519', 'ecdsa-sha2-nistp256', 'ecdsa-sha2-nistp384', 'ecdsa-sha2-nistp521', 'rsa-sha2-512', 'rsa-sha2-256']);
    expect(defaultHopAlgorithms().kex).not.toContain('diffie-hellman-group15-sha512');
    expect(defaultHopAlgorithms().preferKnownHostKeys).toBe(true);
    const pinned = hopAlgorithms(lists({ hostkeyalgorithms: ['ssh-ed25519-cert-v01@openssh.com', 'ssh-ed25519'] }), 'node1', false);
    expect(pinned).toMatchObject({ serverHostKey: ['ssh-ed25519'], preferKnownHostKeys: false });
  });

  it('refuses a list the built-in transport has nothing of, naming the keyword', () => {
    let err: SshError | undefined;
    try {
      hopAlgorithms(lists({ hostkeyalgorithms: ['ssh-ed25519-cert-v01@openssh.com'] }), 'node1', false);
    } catch (e) {
      err = e as SshError;
    }
    expect(err?.code).toBe('NEEDS_OPENSSH');
    expect(err?.message).toMatch(/^HostKeyAlgorithms \(ssh config for node1\) needs the OpenSSH transport/);
    expect(err?.message).toContain('ssh-ed25519-cert-v01@openssh.com');
  });
});

describe('host key algorithms against a real sshd with RSA and ed25519 host keys', () => {
  let h: SshHarness;
  let config: string;

  beforeAll(async () => {
    h = await startSshHarness({ extraHostKeyTypes: ['rsa'] });
    const rsaOnly = join(h.dir, 'rsa_only_known_hosts');
    writeFileSync(rsaOnly, `[${h.host}]:${h.port} ${h.hostKeyLines.find((l) => l.startsWith('ssh-rsa '))}\n`);
    config = join(h.dir, 'pinning_config');
    writeFileSync(config, [
      'Host pinned',
      '  HostKeyAlgorithms ssh-ed25519',
      'Host ownorder',
      '  HostKeyAlgorithms ssh-ed25519,rsa-sha2-512',
      'Host caret',
      '  HostKeyAlgorithms ^ssh-ed25519',
      'Host plus',
      '  HostKeyAlgorithms +ssh-rsa',
      'Host *',
      `  HostName ${h.host}`,
      `  Port ${h.port}`,
      '  User root',
      `  IdentityFile ${h.root.key}`,
      '  IdentitiesOnly yes',
      `  UserKnownHostsFile ${rsaOnly}`,
      '  GlobalKnownHostsFile /dev/null',
      '  StrictHostKeyChecking yes',
      '',
    ].join('\n'));
  });
  afterAll(async () => h?.stop());

  it.each(['openssh', 'builtin'] as const)('honours HostKeyAlgorithms ssh-ed25519 for a host known by RSA: refused as ssh refuses it (%s reader)', async (evaluator) => {
    const prompter = scriptedPrompter({ hostKey: ['remember'] });
    const unpinned = await openSshConnection(await resolveSshTarget('unpinned', { configFile: config }, { evaluator }), { prompter });
    unpinned.close();

    const err = await failure(resolveSshTarget('pinned', { configFile: config }, { evaluator }).then((t) => openSshConnection(t, { prompter })));
    expect(err.code).toBe('HOST_KEY_REJECTED');
    expect(err.message).toContain('has CHANGED');
    expect(prompter.asked.hostKey).toEqual([]);

    const ssh = await runCommand('ssh', ['-F', config, '-o', 'BatchMode=yes', 'pinned', 'true']);
    expect(ssh.stderr).toContain('REMOTE HOST IDENTIFICATION HAS CHANGED');
  });

  it.each(['openssh', 'builtin'] as const)('tries known key types first only where ssh does: unset, + or - lists (%s reader)', async (evaluator) => {
    const outcome = async (alias: string) => {
      try {
        (await openSshConnection(await resolveSshTarget(alias, { configFile: config }, { evaluator }), { prompter: scriptedPrompter() })).close();
        return 'connected';
      } catch (err) {
        return (err as SshError).message.includes('has CHANGED') ? 'changed' : (err as Error).message;
      }
    };
    const sshOutcome = async (alias: string) =>
      (await runCommand('ssh', ['-F', config, '-o', 'BatchMode=yes', alias, 'true'])).stderr.includes('HAS CHANGED') ? 'changed' : 'connected';
    for (const [alias, expected] of [['plus', 'connected'], ['ownorder', 'changed'], ['caret', 'changed']] as const) {
      expect([alias, await outcome(alias)]).toEqual([alias, expected]);
      expect([alias, await sshOutcome(alias)]).toEqual([alias, expected]);
    }
  });
});

describe('a real sshd that signs its host key only with SHA-1 ssh-rsa', () => {
  let h: SshHarness;
  let knownHosts: string;

  beforeAll(async () => {
    h = await startSshHarness({ extraHostKeyTypes: ['rsa'], sshdOptions: { HostKeyAlgorithms: 'ssh-rsa' } });
    knownHosts = join(h.dir, 'rsa_known_hosts');
    writeFileSync(knownHosts, `[${h.host}]:${h.port} ${h.hostKeyLines.find((l) => l.startsWith('ssh-rsa '))}\n`);
  });
  afterAll(async () => h?.stop());

  it('is refused by default, as ssh 8.8+ refuses it, and reached with HostKeyAlgorithms +ssh-rsa as with ssh', async () => {
    const target = harnessTarget(h, h.root, { knownHostsFiles: [knownHosts] });
    const err = await failure(openSshConnection(target, { prompter: scriptedPrompter() }));
    expect(err.code).toBe('NO_COMMON_ALGORITHM');
    expect(err.nextStep).toContain('HostKeyAlgorithms +ssh-rsa');
    const sshArgs = ['-F', '/dev/null', '-o', `UserKnownHostsFile=${knownHosts}`, '-o', 'BatchMode=yes', '-i', h.root.key, '-p', String(h.port), `root@${h.host}`, 'true'];
    const refused = await runCommand('ssh', sshArgs);
    expect(refused.stderr).toContain('no matching host key type found');

    const config = join(h.dir, 'sha1_config');
    writeFileSync(config, `Host old\n  HostName ${h.host}\n  Port ${h.port}\n  User root\n  IdentityFile ${h.root.key}\n  UserKnownHostsFile ${knownHosts}\n  HostKeyAlgorithms +ssh-rsa\n`);
    const conn = await openSshConnection(await resolveSshTarget('old', { configFile: config }, { evaluator: 'builtin' }), { prompter: scriptedPrompter() });
    conn.close();
    expect((await runCommand('ssh', ['-o', 'HostKeyAlgorithms=+ssh-rsa', ...sshArgs])).code).toBe(0);
  });
});
