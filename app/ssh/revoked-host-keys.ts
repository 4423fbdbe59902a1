import { readSmallFile, UnsuitableFileError, type SmallFileLimit } from '../fs/read-small-file';
import { unsupportedBySsh2 } from './config-refusals';
import { SshError } from './ssh-errors';

/**
 * ssh_config RevokedHostKeys, as ssh checks it before known_hosts: a file of public keys (one per
 * line, `#` comments) is read here; a binary KRL is refused, since only OpenSSH can read one and
 * ignoring it could accept a revoked key. A file that cannot be read refuses too, as with ssh.
 */

const REVOKED_KEYS_FILE: SmallFileLimit = { what: 'RevokedHostKeys file', maxBytes: 64 << 20 };
const KRL_MAGIC = Buffer.from('SSHKRL\n\0', 'latin1');

/** The base64 blobs of the public keys listed in a plain revoked-keys file. */
function listedKeys(text: string): Buffer[] {
  const out: Buffer[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const base64 = line.split(/[ \t]+/)[1];
    if (base64) out.push(Buffer.from(base64, 'base64'));
  }
  return out;
}

/** Whether `blob` is listed in `file`; throws when the file cannot be checked. */
export async function isRevokedHostKey(file: string, blob: Buffer, host: string): Promise<boolean> {
  let data: Buffer;
  try {
    data = await readSmallFile(file, REVOKED_KEYS_FILE);
  } catch (err) {
    const why = err instanceof UnsuitableFileError ? err.message : (err as Error).message;
    throw new SshError('LOCAL_FILE', `cannot check the host key of ${host} against RevokedHostKeys ${file}: ${why}; not connecting (ssh refuses too)`,
      'Fix the RevokedHostKeys path in your ssh config, or create the file.', err);
  }
  if (data.subarray(0, KRL_MAGIC.length).equals(KRL_MAGIC)) {
    throw unsupportedBySsh2(host, `RevokedHostKeys ${file}`, 'it is a binary KRL (key revocation list), which only OpenSSH reads');
  }
  return listedKeys(data.toString('utf8')).some((k) => k.equals(blob));
}
