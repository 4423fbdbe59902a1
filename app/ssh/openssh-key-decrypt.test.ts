import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ssh2 from 'ssh2';
import { afterAll, describe, expect, it } from 'vitest';
import { decryptOpenSshKey, readEncryptedOpenSshKey, WrongPassphraseError } from './openssh-key-decrypt';

const dir = mkdtempSync(join(tmpdir(), 'ns-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function keygen(name: string, args: string[]): string {
  const path = join(dir, name);
  execFileSync('ssh-keygen', ['-q', '-N', 'hunter2', '-C', name, '-f', path, ...args]);
  return path;
}

describe('decryptOpenSshKey', () => {
  it.each([
    ['ed25519, default cipher', ['-t', 'ed25519']],
    ['rsa, default cipher', ['-t', 'rsa', '-b', '2048']],
    ['ecdsa, aes256-gcm', ['-t', 'ecdsa', '-Z', 'aes256-gcm@openssh.com']],
  ])('decrypts %s into a key ssh2 uses, with the same public key', async (name, args) => {
    const path = keygen(name.replace(/\W+/g, '_'), args);
    const enc = readEncryptedOpenSshKey(readFileSync(path, 'utf8'));
    expect(enc).not.toBeNull();
    const plain = ssh2.utils.parseKey(await decryptOpenSshKey(enc!, 'hunter2'));
    if (plain instanceof Error) throw plain;
    const pub = ssh2.utils.parseKey(readFileSync(`${path}.pub`));
    if (pub instanceof Error) throw pub;
    expect(plain.isPrivateKey()).toBe(true);
    expect(plain.getPublicSSH().equals(pub.getPublicSSH())).toBe(true);
    await expect(decryptOpenSshKey(enc!, 'wrong')).rejects.toBeInstanceOf(WrongPassphraseError);
  });

  it('keeps the event loop running while the bcrypt KDF works', async () => {
    const enc = readEncryptedOpenSshKey(readFileSync(keygen('busy', ['-t', 'ed25519', '-a', '64']), 'utf8'))!;
    // Counts turns of the event loop, not time: a KDF run on this thread lets at most one turn through.
    let turns = 0;
    let done = false;
    const spin = () => {
      if (done) return;
      turns++;
      setTimeout(spin, 1);
    };
    setTimeout(spin, 1);
    await decryptOpenSshKey(enc, 'hunter2');
    done = true;
    expect(turns).toBeGreaterThan(10);
  });

  it('does not treat unencrypted or legacy PEM keys as openssh-key-v1 encrypted', () => {
    const plain = join(dir, 'plain');
    execFileSync('ssh-keygen', ['-q', '-N', '', '-t', 'ed25519', '-f', plain]);
    expect(readEncryptedOpenSshKey(readFileSync(plain, 'utf8'))).toBeNull();
    expect(readEncryptedOpenSshKey(readFileSync(keygen('pem', ['-t', 'rsa', '-b', '2048', '-m', 'PEM']), 'utf8'))).toBeNull();
  });
});
