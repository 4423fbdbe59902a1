import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { identityPublicKey, loadIdentityKey } from './identity-key';
import { scriptedPrompter } from './testing/ssh-test-kit';

const dir = mkdtempSync(join(tmpdir(), 'ns-ident-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function keygen(name: string, passphrase: string, extra: string[] = []): string {
  const path = join(dir, name);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', passphrase, '-f', path, ...extra]);
  return path;
}

describe('loadIdentityKey', () => {
  it('loads an unencrypted key without asking anything', async () => {
    const prompter = scriptedPrompter();
    const r = await loadIdentityKey(keygen('plain', ''), prompter);
    expect('key' in r && r.key.isPrivateKey()).toBe(true);
    expect(prompter.asked.passphrase).toEqual([]);
  });

  it('decrypts a legacy PEM key after a wrong passphrase', async () => {
    const path = join(dir, 'pem');
    execFileSync('ssh-keygen', ['-q', '-t', 'rsa', '-b', '2048', '-m', 'PEM', '-N', 'secret', '-f', path]);
    const prompter = scriptedPrompter({ passphrases: ['nope', 'secret'] });
    const r = await loadIdentityKey(path, prompter);
    expect('key' in r).toBe(true);
    expect(prompter.asked.passphrase).toHaveLength(2);
  });

  it('skips the key with a reason after three wrong passphrases or when the user declines', async () => {
    const path = keygen('enc', 'secret');
    const wrong = scriptedPrompter({ passphrases: ['a', 'b', 'c', 'secret'] });
    expect(await loadIdentityKey(path, wrong)).toEqual({ skipped: `${path}: wrong passphrase 3 times` });
    expect(wrong.asked.passphrase).toHaveLength(3);
    expect(await loadIdentityKey(path, scriptedPrompter({ passphrases: [null] }))).toEqual({ skipped: `${path}: passphrase not given` });
  });

  it('skips an encrypted key whose file is cut short, without asking for its passphrase', async () => {
    const path = keygen('cut', 'secret');
    const body = readFileSync(path, 'utf8').split('\n').filter((l) => l && !l.startsWith('-----')).join('');
    const cut = Buffer.from(body, 'base64').subarray(0, -60).toString('base64');
    writeFileSync(path, `-----BEGIN OPENSSH PRIVATE KEY-----\n${cut}\n-----END OPENSSH PRIVATE KEY-----\n`);
    const prompter = scriptedPrompter({ passphrases: ['secret'] });
    expect(await loadIdentityKey(path, prompter)).toEqual({ skipped: `${path}: the OpenSSH key file is truncated or corrupt` });
    expect(prompter.asked.passphrase).toEqual([]);
  });

  it('skips missing files and public keys with a reason', async () => {
    expect(await loadIdentityKey(join(dir, 'absent'), scriptedPrompter())).toEqual({ skipped: `${join(dir, 'absent')}: no such file` });
    const pub = `${keygen('pubonly', '')}.pub`;
    expect(await loadIdentityKey(pub, scriptedPrompter())).toEqual({ skipped: `${pub}: not a private key` });
  });

  it('skips what is not a regular file (-i /dev/zero, a FIFO) at once, saying what it is', async () => {
    expect(await loadIdentityKey('/dev/zero', scriptedPrompter())).toEqual({
      skipped: '/dev/zero is a character device, not a regular file: Nodescope reads identity files only from regular files. Give the path of the file itself.',
    });
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    expect(await loadIdentityKey(fifo, scriptedPrompter())).toEqual({ skipped: expect.stringContaining(`${fifo} is a FIFO (named pipe), not a regular file`) });
    expect(await identityPublicKey(fifo)).toBeNull();
  });
});
