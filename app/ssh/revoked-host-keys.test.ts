import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../e2e/harness/run-command';
import { startSshHarness, type SshHarness } from '../../e2e/harness/ssh-harness';
import { openSshConnection } from './ssh-connection';
import type { SshError } from './ssh-errors';
import { resolveSshTarget } from './ssh-target';
import { scriptedPrompter } from './testing/ssh-test-kit';

describe('RevokedHostKeys (real sshd whose key known_hosts trusts)', () => {
  let h: SshHarness;
  let config: string;

  beforeAll(async () => {
    h = await startSshHarness();
    const file = (name: string, text: string) => (writeFileSync(join(h.dir, name), text), join(h.dir, name));
    file('revoked_plain', `# revoked by the admins\n\n${h.jumpHostKeyLine}\n${h.hostKeyLine} the target\n`);
    file('revoked_other', `${h.jumpHostKeyLine}\n`);
    file('host_key.pub', `${h.hostKeyLine}\n`);
    execFileSync('ssh-keygen', ['-q', '-k', '-f', join(h.dir, 'revoked.krl'), join(h.dir, 'host_key.pub')]);
    config = join(h.dir, 'revoked_config');
    writeFileSync(config, [
      'Host plain', '  RevokedHostKeys revoked_plain',
      'Host other', '  RevokedHostKeys revoked_other',
      'Host krl', '  RevokedHostKeys revoked.krl',
      'Host missing', '  RevokedHostKeys no_such_file',
      'Host *',
      `  HostName ${h.host}`,
      `  Port ${h.port}`,
      '  User root',
      `  IdentityFile ${h.root.key}`,
      `  UserKnownHostsFile ${h.knownHosts}`,
      '  StrictHostKeyChecking yes',
      '',
    ].join('\n').replace(/RevokedHostKeys /g, `RevokedHostKeys ${h.dir}/`));
  });
  afterAll(async () => h?.stop());

  const connect = async (alias: string, evaluator: 'openssh' | 'builtin') => {
    const conn = await openSshConnection(await resolveSshTarget(alias, { configFile: config }, { evaluator }), { prompter: scriptedPrompter() });
    conn.close();
  };
  const failure = (p: Promise<unknown>) => p.then(() => { throw new Error('expected a failure'); }, (e: unknown) => e as SshError);
  const ssh = (alias: string) => runCommand('ssh', ['-F', config, '-o', 'BatchMode=yes', alias, 'true']);

  it.each(['openssh', 'builtin'] as const)('refuses a host key listed in a plain key file, as ssh does (%s reader)', async (evaluator) => {
    const err = await failure(connect('plain', evaluator));
    expect(err.code).toBe('HOST_KEY_REJECTED');
    expect(err.message).toContain(`revoked by ${h.dir}/revoked_plain (RevokedHostKeys)`);
    expect((await ssh('plain')).stderr).toContain('revoked by file');
    await connect('other', evaluator);
  });

  it.each(['openssh', 'builtin'] as const)('refuses to connect with a binary KRL it cannot read, saying OpenSSH is needed (%s reader)', async (evaluator) => {
    const err = await failure(connect('krl', evaluator));
    expect(err.code).toBe('NEEDS_OPENSSH');
    expect(err.message).toMatch(/^RevokedHostKeys .*revoked\.krl \(ssh config for .*\) needs the OpenSSH transport.*binary KRL/);
    expect((await ssh('krl')).stderr).toContain('revoked by file');
  });

  it.each(['openssh', 'builtin'] as const)('refuses when the file is missing, as ssh does (%s reader)', async (evaluator) => {
    const err = await failure(connect('missing', evaluator));
    expect(err.code).toBe('LOCAL_FILE');
    expect(err.message).toContain('no_such_file');
    expect((await ssh('missing')).stderr).toContain('Error checking host key');
  });
});
