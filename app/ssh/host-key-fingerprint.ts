import { createHash } from 'node:crypto';

/**
 * Helpers for a host key in SSH wire format (what ssh2's hostVerifier receives and what the
 * base64 field of a known_hosts line decodes to): string key-type, then type-specific fields.
 */

/** The key type named inside the blob, e.g. `ssh-ed25519`; throws on a blob that is not a key. */
export function keyTypeOfBlob(blob: Buffer): string {
  if (blob.length < 4) throw new Error(`not an SSH public key: ${blob.length} bytes`);
  const length = blob.readUInt32BE(0);
  if (length === 0 || length > 64 || 4 + length > blob.length) throw new Error('not an SSH public key: bad key-type field');
  return blob.subarray(4, 4 + length).toString('latin1');
}

/** `SHA256:<base64 without padding>`, exactly what `ssh-keygen -lf` and OpenSSH prompts show. */
export function fingerprintSha256(blob: Buffer): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}
