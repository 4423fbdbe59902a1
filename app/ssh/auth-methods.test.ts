import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSshHarness, type SshHarness } from '../../e2e/harness/ssh-harness';
import { openSshConnection } from './ssh-connection';
import type { SshError } from './ssh-errors';
import type { KeyboardInteractiveQuestion } from './ssh-prompter';
import { resolveSshTarget } from './ssh-target';
import { scriptedPrompter } from './testing/ssh-test-kit';

describe('login methods from ssh_config (real sshd offering publickey, keyboard-interactive and password)', () => {
  let h: SshHarness;
  let config: string;

  beforeAll(async () => {
    h = await startSshHarness({ passwordUser: true });
    config = join(h.dir, 'auth_config');
    writeFileSync(config, [
      'Host nopassword',
      '  PasswordAuthentication no',
      '  ChallengeResponseAuthentication no', // ssh's old name for KbdInteractiveAuthentication
      'Host keysonly',
      '  PreferredAuthentications publickey',
      'Host passwordfirst',
      '  PreferredAuthentications password,keyboard-interactive',
      'Host *',
      `  HostName ${h.host}`,
      `  Port ${h.port}`,
      `  User ${h.passwordUser!.name}`,
      '  IdentityFile /nonexistent/key',
      `  UserKnownHostsFile ${h.knownHosts}`,
      '  StrictHostKeyChecking yes',
      '',
    ].join('\n'));
  });
  afterAll(async () => h?.stop());

  /** Logs in to `alias` answering every question with the password, and returns the questions. */
  async function questionsFor(alias: string, evaluator: 'openssh' | 'builtin'): Promise<{ asked: KeyboardInteractiveQuestion[]; err?: SshError }> {
    const asked: KeyboardInteractiveQuestion[] = [];
    const prompter = { ...scriptedPrompter(), keyboardInteractive: async (q: KeyboardInteractiveQuestion) => (asked.push(q), q.prompts.map(() => h.passwordUser!.password)) };
    try {
      const conn = await openSshConnection(await resolveSshTarget(alias, { configFile: config }, { evaluator }), { prompter });
      conn.close();
      return { asked };
    } catch (err) {
      return { asked, err: err as SshError };
    }
  }

  it.each(['openssh', 'builtin'] as const)('never asks for (or sends) a password where ssh_config turns password logins off (%s reader)', async (evaluator) => {
    for (const alias of ['nopassword', 'keysonly']) {
      const { asked, err } = await questionsFor(alias, evaluator);
      expect(asked, alias).toEqual([]);
      expect(err?.code, alias).toBe('AUTH_FAILED');
    }
  });

  it.each(['openssh', 'builtin'] as const)('tries the methods in PreferredAuthentications order (%s reader)', async (evaluator) => {
    const preferred = await questionsFor('passwordfirst', evaluator);
    expect(preferred.err).toBeUndefined();
    // The password method's own prompt, not the server's keyboard-interactive one.
    expect(preferred.asked.map((q) => q.prompts[0]!.prompt)).toEqual([`${h.passwordUser!.name}@${h.host}'s password: `]);
    const byDefault = await questionsFor('anything', evaluator);
    expect(byDefault.err).toBeUndefined();
    expect(byDefault.asked.map((q) => q.prompts[0]!.prompt)).not.toEqual([`${h.passwordUser!.name}@${h.host}'s password: `]);
  });
});
