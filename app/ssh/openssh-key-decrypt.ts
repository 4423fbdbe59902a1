import { createDecipheriv } from 'node:crypto';
import { bcryptKdfInWorker } from './bcrypt-kdf-worker';

/**
 * Decrypts an `openssh-key-v1` private key (what ssh-keygen writes by default) without
 * blocking the event loop: the bcrypt KDF runs in a worker, the cheap AES step here. The
 * result is the same key re-encoded unencrypted (cipher "none"), held only in memory, for
 * ssh2's own parser.
 */

const MAGIC = 'openssh-key-v1\0';

interface CipherInfo {
  openssl: string;
  keyLen: number;
  ivLen: number;
  authLen: number;
}

/** The ciphers ssh-keygen can use for key files that ssh2 can also read. */
const CIPHERS: Record<string, CipherInfo> = {
  'aes128-ctr': { openssl: 'aes-128-ctr', keyLen: 16, ivLen: 16, authLen: 0 },
  'aes192-ctr': { openssl: 'aes-192-ctr', keyLen: 24, ivLen: 16, authLen: 0 },
  'aes256-ctr': { openssl: 'aes-256-ctr', keyLen: 32, ivLen: 16, authLen: 0 },
  'aes128-cbc': { openssl: 'aes-128-cbc', keyLen: 16, ivLen: 16, authLen: 0 },
  'aes192-cbc': { openssl: 'aes-192-cbc', keyLen: 24, ivLen: 16, authLen: 0 },
  'aes256-cbc': { openssl: 'aes-256-cbc', keyLen: 32, ivLen: 16, authLen: 0 },
  'aes128-gcm@openssh.com': { openssl: 'aes-128-gcm', keyLen: 16, ivLen: 12, authLen: 16 },
  'aes256-gcm@openssh.com': { openssl: 'aes-256-gcm', keyLen: 32, ivLen: 12, authLen: 16 },
};

class Reader {
  pos = 0;
  constructor(private readonly buf: Buffer) {}
  u32(): number {
    if (this.pos + 4 > this.buf.length) throw new Error('truncated');
    const v = this.buf.readUInt32BE(this.pos);
    this.pos += 4;
    return v;
  }
  bytes(): Buffer {
    const len = this.u32();
    if (this.pos + len > this.buf.length) throw new Error('truncated');
    const v = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return v;
  }
  rest(): Buffer {
    return this.buf.subarray(this.pos);
  }
}

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const sshString = (b: Buffer) => Buffer.concat([u32(b.length), b]);

/** The passphrase did not decrypt the key; the caller may ask again. */
export class WrongPassphraseError extends Error {
  override readonly name = 'WrongPassphraseError';
}

export interface EncryptedOpenSshKey {
  cipher: string;
  salt: Buffer;
  rounds: number;
  publicKeys: Buffer[];
  encrypted: Buffer;
  authTag: Buffer;
}

/** Returns the encryption parameters, or null when `text` is not a bcrypt-encrypted openssh-key-v1 file. */
export function readEncryptedOpenSshKey(text: string): EncryptedOpenSshKey | null {
  const m = /-----BEGIN OPENSSH PRIVATE KEY-----([\s\S]+?)-----END OPENSSH PRIVATE KEY-----/.exec(text);
  if (!m?.[1]) return null;
  const data = Buffer.from(m[1].replace(/\s+/g, ''), 'base64');
  if (data.subarray(0, MAGIC.length).toString('latin1') !== MAGIC) return null;
  const r = new Reader(data);
  r.pos = MAGIC.length;
  try {
    const cipher = r.bytes().toString();
    const kdf = r.bytes().toString();
    if (kdf !== 'bcrypt') return null;
    const opts = new Reader(r.bytes());
    const salt = opts.bytes();
    const rounds = opts.u32();
    const count = r.u32();
    const publicKeys = Array.from({ length: count }, () => r.bytes());
    const encrypted = r.bytes();
    return { cipher, salt, rounds, publicKeys, encrypted, authTag: r.rest() };
  } catch {
    throw new Error('the OpenSSH key file is truncated or corrupt');
  }
}

/** Decrypts with `passphrase`; resolves to an unencrypted OpenSSH key file (in memory). Throws WrongPassphraseError. */
export async function decryptOpenSshKey(key: EncryptedOpenSshKey, passphrase: string): Promise<Buffer> {
  const info = CIPHERS[key.cipher];
  if (!info) {
    throw new Error(`key cipher ${key.cipher} is not supported; re-encrypt it with \`ssh-keygen -p -Z aes256-ctr -f KEY\``);
  }
  const derived = await bcryptKdfInWorker(Buffer.from(passphrase, 'utf8'), key.salt, key.rounds, info.keyLen + info.ivLen);
  const decipher = createDecipheriv(info.openssl, derived.subarray(0, info.keyLen), derived.subarray(info.keyLen), {
    authTagLength: info.authLen || undefined,
  } as never);
  decipher.setAutoPadding(false);
  if (info.authLen) (decipher as unknown as { setAuthTag(t: Buffer): void }).setAuthTag(key.authTag);
  let plain: Buffer;
  try {
    plain = Buffer.concat([decipher.update(key.encrypted), decipher.final()]);
  } catch {
    // GCM authenticates the ciphertext, so a wrong passphrase fails here.
    throw new WrongPassphraseError('wrong passphrase');
  }
  // The private section starts with the same random check-int twice; only the right key decrypts them equal.
  if (plain.length < 8 || plain.readUInt32BE(0) !== plain.readUInt32BE(4)) {
    throw new WrongPassphraseError('wrong passphrase');
  }
  const body = Buffer.concat([
    Buffer.from(MAGIC, 'latin1'),
    sshString(Buffer.from('none')),
    sshString(Buffer.from('none')),
    sshString(Buffer.alloc(0)),
    u32(key.publicKeys.length),
    ...key.publicKeys.map(sshString),
    sshString(plain),
  ]);
  const b64 = body.toString('base64').replace(/.{1,70}/g, '$&\n');
  return Buffer.from(`-----BEGIN OPENSSH PRIVATE KEY-----\n${b64}-----END OPENSSH PRIVATE KEY-----\n`);
}
