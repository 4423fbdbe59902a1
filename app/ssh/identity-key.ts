import ssh2, { type ParsedKey } from 'ssh2';
import { readSmallFile, UnsuitableFileError, type SmallFileLimit } from '../fs/read-small-file';
import { decryptOpenSshKey, readEncryptedOpenSshKey, WrongPassphraseError } from './openssh-key-decrypt';
import type { SshPrompter } from './ssh-prompter';

/**
 * Loads one IdentityFile for public-key auth, asking for its passphrase through the prompter
 * when it is encrypted. Never throws: a key that cannot be used is skipped with a reason, the
 * way ssh(1) moves on to the next method.
 */

export type IdentityKeyResult = { key: ParsedKey } | { skipped: string };

const MAX_PASSPHRASE_ATTEMPTS = 3;
/** OpenSSH's own limit for a key file (MAX_KEY_FILE_SIZE); a bigger one is not a key. */
const IDENTITY_FILE: SmallFileLimit = { what: 'identity file', maxBytes: 1 << 20 };

const needsPassphrase = (err: Error) => /no passphrase given/i.test(err.message);
const isBadPassphrase = (err: Error) => /bad passphrase|integrity check failed/i.test(err.message);

export async function loadIdentityKey(keyPath: string, prompter: SshPrompter): Promise<IdentityKeyResult> {
  let data: Buffer;
  try {
    data = await readSmallFile(keyPath, IDENTITY_FILE);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { skipped: `${keyPath}: no such file` };
    return { skipped: err instanceof UnsuitableFileError ? err.message : `${keyPath}: ${(err as Error).message}` };
  }
  const plain = ssh2.utils.parseKey(data);
  if (!(plain instanceof Error)) {
    return plain.isPrivateKey() ? { key: plain } : { skipped: `${keyPath}: not a private key` };
  }
  if (!needsPassphrase(plain)) return { skipped: `${keyPath}: ${plain.message}` };

  let openssh: ReturnType<typeof readEncryptedOpenSshKey>;
  try {
    openssh = readEncryptedOpenSshKey(data.toString('utf8'));
  } catch (err) {
    // A corrupt file must cost this key only, not the auth methods after it.
    return { skipped: `${keyPath}: ${(err as Error).message}` };
  }
  let retryReason: string | undefined;
  for (let attempt = 1; attempt <= MAX_PASSPHRASE_ATTEMPTS; attempt++) {
    const passphrase = await prompter.passphrase({ keyPath, attempt, ...(retryReason ? { retryReason } : {}) });
    if (passphrase === null) return { skipped: `${keyPath}: passphrase not given` };
    try {
      // Only openssh-key-v1 files use the slow bcrypt KDF; legacy PEM decrypts in microseconds.
      const parsed = ssh2.utils.parseKey(openssh ? await decryptOpenSshKey(openssh, passphrase) : data, passphrase);
      if (!(parsed instanceof Error)) return { key: parsed };
      if (!isBadPassphrase(parsed)) return { skipped: `${keyPath}: ${parsed.message}` };
    } catch (err) {
      if (!(err instanceof WrongPassphraseError)) return { skipped: `${keyPath}: ${(err as Error).message}` };
    }
    retryReason = `Wrong passphrase for ${keyPath}`;
  }
  return { skipped: `${keyPath}: wrong passphrase ${MAX_PASSPHRASE_ATTEMPTS} times` };
}

/**
 * The public half of an identity file, without asking for a passphrase: from `<path>.pub`,
 * else from the file itself (a public key, an unencrypted key, or the cleartext header of an
 * encrypted OpenSSH key). null when none of these work.
 */
export async function identityPublicKey(keyPath: string): Promise<Buffer | null> {
  for (const path of [`${keyPath}.pub`, keyPath]) {
    let data: Buffer;
    try {
      data = await readSmallFile(path, IDENTITY_FILE);
    } catch {
      continue;
    }
    const parsed = ssh2.utils.parseKey(data);
    if (!(parsed instanceof Error)) return parsed.getPublicSSH();
    const encrypted = readEncryptedOpenSshKey(data.toString('utf8'));
    if (encrypted?.publicKeys[0]) return encrypted.publicKeys[0];
  }
  return null;
}

/**
 * The key type a `<path>.pub` names (its first word), read without parsing the key: ssh2 cannot parse
 * some types at all (FIDO `sk-` keys), and those must still be recognised. undefined without a .pub.
 */
export async function declaredKeyType(keyPath: string): Promise<string | undefined> {
  try {
    return (await readSmallFile(`${keyPath}.pub`, IDENTITY_FILE)).toString('utf8').trim().split(/\s+/)[0] || undefined;
  } catch {
    return undefined;
  }
}
