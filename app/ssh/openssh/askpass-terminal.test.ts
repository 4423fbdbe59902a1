// The CLI's way: ssh asks through askpass, and askpass asks on the terminal (the terminal prompter), so
// a prompt looks the same with or without a tty and Ctrl-C at it interrupts. script(1) gives the program a pty.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSshHarness, type SshHarness } from '../../../e2e/harness/ssh-harness';
import { typeOnTerminal } from '../../cli/testing/type-on-terminal';

const PROMPTER = resolve(import.meta.dirname, '..', '..', 'cli', 'terminal-prompter.ts');
const ASKPASS = resolve(import.meta.dirname, 'askpass-server.ts');

describe('askpass with the terminal prompter, on a pseudo-terminal (real ssh and sshd)', () => {
  let h: SshHarness;
  const dir = mkdtempSync(join(tmpdir(), 'ns-askpass-tty-'));

  beforeAll(async () => {
    h = await startSshHarness({ passwordUser: true });
  });
  afterAll(async () => {
    await h?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs ssh with `options` from a program on a pty; types `typed` once `when` shows up there. Resolves with all the terminal showed. */
  function sshOnTerminal(user: string, options: string[], when: RegExp, typed: string): Promise<string> {
    const args = ['-F', '/dev/null', '-p', String(h.port), '-l', user, ...options.flatMap((o) => ['-o', o]), '-o', `UserKnownHostsFile=${h.knownHosts}`,
      '-o', 'IdentitiesOnly=yes', '-o', 'IdentityAgent=none', h.host, 'echo', 'logged-in'];
    const file = join(mkdtempSync(join(dir, 'run-')), 'ssh.mts');
    writeFileSync(file, `import { spawn } from 'node:child_process';
import { terminalPrompter } from ${JSON.stringify(PROMPTER)};
import { startAskpass } from ${JSON.stringify(ASKPASS)};
const prompter = terminalPrompter();
const askpass = await startAskpass(prompter, { label: 'test' });
const ssh = spawn('ssh', ${JSON.stringify(args)}, { env: { ...process.env, ...askpass.env }, stdio: ['ignore', 'pipe', 'pipe'] });
let out = '';
ssh.stdout.on('data', (d) => (out += d));
ssh.stderr.on('data', () => undefined);
const code = await new Promise((r) => ssh.on('close', r));
console.log('RESULT', JSON.stringify({ code, out }));
await askpass.close();
prompter.close();
`);
    return typeOnTerminal(file, when, typed);
  }

  it('asks for a key passphrase on the terminal, without echoing it, and ssh logs in', async () => {
    const shown = await sshOnTerminal(h.operator.name, [`IdentityFile=${h.operator.encryptedKey}`], /Enter passphrase for key/, `${h.operator.passphrase}\r`);
    expect(shown).toContain(`Enter passphrase for key '${h.operator.encryptedKey}': `);
    expect(shown).toContain('RESULT {"code":0,"out":"logged-in\\n"}');
    expect(shown).not.toContain(h.operator.passphrase);
  });

  it('asks for a password on the terminal, and ssh logs in', async () => {
    const pw = h.passwordUser!;
    const shown = await sshOnTerminal(pw.name, ['PreferredAuthentications=password', 'PubkeyAuthentication=no'], /password: /, `${pw.password}\r`);
    expect(shown).toContain(`${pw.name}@${h.host}'s password: `);
    expect(shown).toContain('RESULT {"code":0,"out":"logged-in\\n"}');
    expect(shown).not.toContain(pw.password);
  });

  it('Ctrl-C at the prompt interrupts the program, as it does ssh at its own prompt: no login goes on without the key', async () => {
    const shown = await sshOnTerminal(h.operator.name, [`IdentityFile=${h.operator.encryptedKey}`, 'PreferredAuthentications=publickey'], /Enter passphrase for key/, '\u0003');
    expect(shown.match(/Enter passphrase for key/g)).toHaveLength(1);
    // Interrupted at the question: the program never saw ssh end.
    expect(shown).not.toContain('RESULT');
  });
});
