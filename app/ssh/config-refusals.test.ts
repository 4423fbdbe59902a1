import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../e2e/harness/run-command';
import { startSshHarness, type SshHarness } from '../../e2e/harness/ssh-harness';
import { pollUntil } from '../testing/poll-until';
import { openSshConnection } from './ssh-connection';
import type { SshError } from './ssh-errors';
import { resolveSshTarget } from './ssh-target';
import { scriptedPrompter } from './testing/ssh-test-kit';

describe('ssh_config settings beyond host keys (real sshd)', () => {
  let h: SshHarness;
  let config: string;

  beforeAll(async () => {
    h = await startSshHarness();
    config = join(h.dir, 'settings_config');
    writeFileSync(config, [
      'Host bound', '  BindAddress 127.0.0.2',
      'Host oldcipher', '  Ciphers 3des-cbc',
      'Host khcommand', '  KnownHostsCommand /bin/echo %H',
      'Host canonical', '  CanonicalizeHostname yes',
      'Host shared', '  ControlMaster auto', '  ControlPath /tmp/%C',
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

  it.each(['openssh', 'builtin'] as const)('says ControlMaster is not used, and connects (%s reader)', async (evaluator) => {
    const target = await resolveSshTarget('shared', { configFile: config }, { evaluator });
    expect(target.notices).toEqual([expect.stringMatching(/^shared: ControlMaster \S+ is not used by Nodescope's built-in SSH transport/)]);
    (await openSshConnection(target, { prompter: scriptedPrompter() })).close();
  });
});
