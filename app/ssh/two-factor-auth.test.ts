import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicKeyLine } from '../../e2e/harness/ssh-keys';
import { startSshHarness, type SshHarness } from '../../e2e/harness/ssh-harness';
import { startAskpass } from './openssh/askpass-server';
import { runCommand } from '../../e2e/harness/run-command';
import { openSshConnection } from './ssh-connection';
import type { KeyboardInteractiveQuestion, SshPrompter } from './ssh-prompter';
import { harnessTarget, scriptedPrompter } from './testing/ssh-test-kit';

/**
 * Two factors (sshd `AuthenticationMethods`): ssh logs in with a key and then the password, in the order the
 * server demands. The built-in transport must do the same, or say what it lacks; never blame the credentials.
 */
describe.each(['publickey,password', 'password,publickey'])('AuthenticationMethods %s (real sshd)', (methods) => {
  let h: SshHarness;

  beforeAll(async () => {
    h = await startSshHarness({ passwordUser: true, sshdOptions: { AuthenticationMethods: methods } });
    await writeFile(join(h.dir, 'authorized_keys', h.passwordUser!.name), `${await publicKeyLine(h.root.key)}\n`, { mode: 0o644 });
  });
  afterAll(async () => h?.stop());

  const answering = (): SshPrompter & { asked: KeyboardInteractiveQuestion[] } => {
    const asked: KeyboardInteractiveQuestion[] = [];
    return { ...scriptedPrompter(), asked, keyboardInteractive: async (q) => (asked.push(q), q.prompts.map(() => h.passwordUser!.password)) };
  };

  it('ssh logs in with both, the password asked through askpass', async () => {
    const prompter = answering();
    const askpass = await startAskpass(prompter, { label: `${h.passwordUser!.name}@${h.host}` });
    try {
      const r = await runCommand('setsid', ['-w', 'ssh', '-F', '/dev/null', '-p', String(h.port), '-l', h.passwordUser!.name, '-o', `IdentityFile=${h.root.key}`,
        '-o', `UserKnownHostsFile=${h.knownHosts}`, '-o', 'IdentitiesOnly=yes', '-o', 'IdentityAgent=none', h.host, 'echo', 'in'], { env: { ...process.env, ...askpass.env } });
      expect(r.stdout, r.stderr).toBe('in\n');
      expect(prompter.asked).toHaveLength(1);
    } finally {
      await askpass.close();
    }
  });

  it('the built-in transport logs in with both too', async () => {
    const prompter = answering();
    const conn = await openSshConnection(harnessTarget(h, { name: h.passwordUser!.name, key: h.root.key }), { prompter });
    conn.close();
    expect(prompter.asked).toHaveLength(1);
  });
});
