import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runChecked } from './run-command';
import { generateKey, publicKeyLine } from './ssh-keys';

/**
 * SSH certificate authorities and key revocation lists for sshd fixtures, made with ssh-keygen as an
 * operator's CA (Vault, Teleport, smallstep) would: what the built-in transport must refuse and the
 * OpenSSH transport must accept.
 */
export interface SshCa {
  /** Private key of the CA. */
  key: string;
  /** Its public key line, `ssh-ed25519 AAAA...`, for TrustedUserCAKeys files and @cert-authority lines. */
  publicKeyLine: string;
  /** Path of the public key file (for sshd's TrustedUserCAKeys). */
  publicKeyFile: string;
}

export async function createCa(dir: string, name: string): Promise<SshCa> {
  const key = join(dir, name);
  await generateKey(key, `nodescope-harness-${name}`);
  return { key, publicKeyLine: await publicKeyLine(key), publicKeyFile: `${key}.pub` };
}

/**
 * Signs `<privateKey>.pub` and returns the certificate's path, `<privateKey>-cert.pub`, where ssh finds it
 * next to the key. A host certificate's principals are the names clients connect to; a user's, the login names.
 */
export async function signKey(ca: SshCa, privateKey: string, opts: { identity: string; principals: string[]; host?: boolean }): Promise<string> {
  await runChecked('ssh-keygen', ['-q', '-s', ca.key, '-I', opts.identity, ...(opts.host ? ['-h'] : []), '-n', opts.principals.join(','), `${privateKey}.pub`]);
  return `${privateKey}-cert.pub`;
}

/** A known_hosts line trusting `ca` for hosts matching `pattern` (e.g. `[127.0.0.1]:2222`). */
export const certAuthorityLine = (pattern: string, ca: SshCa) => `@cert-authority ${pattern} ${ca.publicKeyLine}`;

/** A KRL (ssh-keygen -k) revoking the given public keys (`type base64` lines), for RevokedHostKeys / RevokedKeys. */
export async function writeKrl(path: string, revokedKeyLines: string[]): Promise<string> {
  const list = `${path}.keys`;
  await writeFile(list, revokedKeyLines.join('\n') + '\n', { mode: 0o600 });
  await runChecked('ssh-keygen', ['-q', '-k', '-f', path, list]);
  return path;
}
