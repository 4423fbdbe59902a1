import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../../e2e/harness/run-command';
import { startSshHarness, type SshHarness } from '../../../e2e/harness/ssh-harness';
import type { HostKeyAnswer, HostKeyQuestion, KeyboardInteractiveQuestion, PassphraseQuestion, SshPrompter } from '../ssh-prompter';
import { startAskpass } from './askpass-server';

/** Answers like a user would, from a script, and records every question. */
function recordingPrompter(script: { hostKey?: HostKeyAnswer; passphrases?: (string | null)[]; answers?: (string | null)[] }) {
  const asked = { hostKey: [] as HostKeyQuestion[], passphrase: [] as PassphraseQuestion[], keyboard: [] as KeyboardInteractiveQuestion[] };
  const passphrases = [...(script.passphrases ?? [])];
  const answers = [...(script.answers ?? [])];
  const prompter: SshPrompter = {
    hostKey: async (q) => (asked.hostKey.push(q), script.hostKey ?? 'refuse'),
    passphrase: async (q) => (asked.passphrase.push(q), passphrases.shift() ?? null),
    keyboardInteractive: async (q) => {
      asked.keyboard.push(q);
      const a = answers.shift();
      return a === null || a === undefined ? null : [a];
    },
  };
  return { prompter, asked };
}

describe('askpass: a real ssh asks the prompter through the helper (real sshd)', () => {
  let h: SshHarness;

  beforeAll(async () => {
    h = await startSshHarness({ passwordUser: true });
  });
  afterAll(async () => {
    await h?.stop();
  });

  /** ssh as Nodescope's transport will run it: no terminal needed, the user's config replaced by `-o`s. */
  async function ssh(prompter: SshPrompter, user: string, options: string[], env: Record<string, string> = {}) {
    const askpass = await startAskpass(prompter, { label: `${user}@${h.host}` });
    try {
      // The test's options first: ssh keeps the first value it is given.
      const args = ['-F', '/dev/null', '-p', String(h.port), '-l', user, ...options.flatMap((o) => ['-o', o]), '-o', `UserKnownHostsFile=${h.knownHosts}`,
        '-o', 'GlobalKnownHostsFile=/dev/null', '-o', 'IdentitiesOnly=yes', '-o', 'IdentityAgent=none', h.host, 'echo', 'logged-in'];
      // setsid-like: no controlling terminal, as the app runs ssh.
      return await runCommand('setsid', ['-w', 'ssh', ...args], { env: { ...process.env, ...askpass.env, ...env } });
    } finally {
      await askpass.close();
    }
  }

  it('asks about an unknown host key with its fingerprint, and ssh records it on yes', async () => {
    const kh = join(h.dir, 'known_hosts_new');
    await writeFile(kh, '', { mode: 0o600 });
    const { prompter, asked } = recordingPrompter({ hostKey: 'remember' });
    const r = await ssh(prompter, 'root', [`IdentityFile=${h.root.key}`, `UserKnownHostsFile=${kh}`, 'StrictHostKeyChecking=ask']);
    expect(r.stdout).toBe('logged-in\n');
    // Said to record what it accepts: ssh has no "accept once", so none is offered.
    expect(asked.hostKey).toEqual([{ host: h.host, port: h.port, keyType: 'ED25519', fingerprint: expect.stringMatching(/^SHA256:[A-Za-z0-9+/]{43}$/), recordsAccepted: true }]);
    expect(await readFile(kh, 'utf8')).toContain(h.hostKeyLine);
  });

  it('refuses the host on "no": ssh fails and writes nothing', async () => {
    const kh = join(h.dir, 'known_hosts_refused');
    await writeFile(kh, '', { mode: 0o600 });
    const { prompter, asked } = recordingPrompter({ hostKey: 'refuse' });
    const r = await ssh(prompter, 'root', [`IdentityFile=${h.root.key}`, `UserKnownHostsFile=${kh}`, 'StrictHostKeyChecking=ask']);
    expect(r.code).toBe(255);
    expect(r.stderr).toContain('Host key verification failed.');
    expect(asked.hostKey).toHaveLength(1);
    expect((await stat(kh)).size).toBe(0);
  });

  it('asks for a key passphrase again, saying why, after a wrong one', async () => {
    const { prompter, asked } = recordingPrompter({ passphrases: ['wrong', h.operator.passphrase] });
    const r = await ssh(prompter, h.operator.name, [`IdentityFile=${h.operator.encryptedKey}`, 'PreferredAuthentications=publickey']);
    expect(r.stdout).toBe('logged-in\n');
    expect(asked.passphrase).toEqual([
      { keyPath: h.operator.encryptedKey, attempt: 1 },
      { keyPath: h.operator.encryptedKey, attempt: 2, retryReason: `Wrong passphrase for ${h.operator.encryptedKey}` },
    ]);
  });

  it('asks for a password for the login that needs it (the prompt broker shows it as a password)', async () => {
    const pw = h.passwordUser!;
    const { prompter, asked } = recordingPrompter({ answers: [pw.password] });
    const r = await ssh(prompter, pw.name, ['PreferredAuthentications=password', 'PubkeyAuthentication=no']);
    expect(r.stdout).toBe('logged-in\n');
    expect(asked.keyboard).toEqual([
      { name: '', login: { user: pw.name, host: h.host }, instructions: '', prompts: [{ prompt: `${pw.name}@${h.host}'s password: `, echo: false }] },
    ]);
  });

  it('asks keyboard-interactive questions hidden, for the login ssh names', async () => {
    const pw = h.passwordUser!;
    const { prompter, asked } = recordingPrompter({ answers: [pw.password] });
    const r = await ssh(prompter, pw.name, ['PreferredAuthentications=keyboard-interactive', 'PubkeyAuthentication=no']);
    expect(r.stdout).toBe('logged-in\n');
    expect(asked.keyboard).toEqual([
      { name: '', login: { user: pw.name, host: h.host }, instructions: '', prompts: [{ prompt: 'Password: ', echo: false }] },
    ]);
  });

  it('cancels the login when the user declines: ssh gives up without the secret', async () => {
    const pw = h.passwordUser!;
    const { prompter, asked } = recordingPrompter({ answers: [null] });
    const r = await ssh(prompter, pw.name, ['PreferredAuthentications=password', 'PubkeyAuthentication=no', 'NumberOfPasswordPrompts=1']);
    expect(r.code).toBe(255);
    expect(r.stderr).toContain('Permission denied');
    expect(asked.keyboard).toHaveLength(1);
  });

  it('answers no helper that lacks the session token: the prompt never reaches the user', async () => {
    const { prompter, asked } = recordingPrompter({ answers: ['secret'] });
    const askpass = await startAskpass(prompter, { label: 'x' });
    try {
      const env = { ...process.env, ...askpass.env, NODESCOPE_ASKPASS_TOKEN: 'guessed' };
      const r = await runCommand(askpass.env.SSH_ASKPASS!, ["x@y's password: "], { env });
      expect(r.code).not.toBe(0);
      expect(r.stdout).toBe('');
      expect(asked.keyboard).toHaveLength(0);
    } finally {
      await askpass.close();
    }
  });

  it('keeps the helper and socket in a private directory, and puts no secret in the environment', async () => {
    const { prompter } = recordingPrompter({});
    const askpass = await startAskpass(prompter, { label: 'x' });
    try {
      const dir = join(askpass.env.NODESCOPE_ASKPASS_SOCKET!, '..');
      expect((await stat(dir)).mode & 0o777).toBe(0o700);
      expect((await stat(askpass.env.SSH_ASKPASS!)).mode & 0o777).toBe(0o700);
      expect(askpass.env.SSH_ASKPASS_REQUIRE).toBe('force');
      await askpass.close();
      await expect(stat(dir)).rejects.toThrow();
    } finally {
      await askpass.close();
    }
  });
});
