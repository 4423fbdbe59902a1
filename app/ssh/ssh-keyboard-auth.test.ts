import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runChecked, runCommand } from '../../e2e/harness/run-command';
import { startSshHarness, type SshHarness } from '../../e2e/harness/ssh-harness';
import { ensureSystemUser } from '../../e2e/harness/system-users';
import { openSshConnection } from './ssh-connection';
import { SshError } from './ssh-errors';
import type { KeyboardInteractiveQuestion } from './ssh-prompter';
import { harnessTarget, scriptedPrompter } from './testing/ssh-test-kit';

/** A throw-away account that can only log in with a password, through PAM's keyboard-interactive. */
const USER = 'nsharness-kbd';
const PASSWORD = `pw-${randomBytes(9).toString('base64url')}`;

describe('keyboard-interactive authentication (real sshd with PAM)', () => {
  let h: SshHarness;

  beforeAll(async () => {
    await ensureSystemUser(USER);
    await runChecked('chpasswd', [], `${USER}:${PASSWORD}\n`);
    h = await startSshHarness({
      sshdOptions: { UsePAM: 'yes', KbdInteractiveAuthentication: 'yes', PasswordAuthentication: 'no', AllowUsers: USER },
    });
  });
  afterAll(async () => {
    await h?.stop();
    await runCommand('userdel', ['-r', USER]);
  });

  const target = () => harnessTarget(h, { name: USER, key: '/nonexistent' }, { identityFiles: [] });

  it('asks the prompter the server\'s questions and logs in with the answers', async () => {
    const asked: KeyboardInteractiveQuestion[] = [];
    const conn = await openSshConnection(target(), {
      prompter: { ...scriptedPrompter(), keyboardInteractive: async (q) => (asked.push(q), [PASSWORD]) },
    });
    conn.close();
    expect(asked).toHaveLength(1);
    expect(asked[0]!.prompts).toEqual([{ prompt: expect.stringMatching(/password/i), echo: false }]);
  });

  it('says the login was cancelled when the user declines the prompt', async () => {
    const err = (await openSshConnection(target(), { prompter: scriptedPrompter() }).catch((e: unknown) => e)) as SshError;
    expect(err.code).toBe('AUTH_FAILED');
    expect(err.message).toBe(`Login to ${USER}@${h.host}:${h.port} cancelled at the password prompt`);
  });

  it('names the methods tried after a wrong password', async () => {
    const err = (await openSshConnection(target(), {
      prompter: { ...scriptedPrompter(), keyboardInteractive: async () => ['not-the-password'] },
    }).catch((e: unknown) => e)) as SshError;
    expect(err.code).toBe('AUTH_FAILED');
    expect(err.message).toContain('tried: keyboard-interactive');
  });
});
