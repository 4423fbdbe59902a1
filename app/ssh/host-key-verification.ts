import { fingerprintSha256, keyTypeOfBlob } from './host-key-fingerprint';
import { unsupportedBySsh2 } from './config-refusals';
import { isRevokedHostKey } from './revoked-host-keys';
import { checkKnownHosts, knownHostsName, readKnownHosts, rememberHostKey, type StoredKey } from './known-hosts';
import type { ResolvedSshHost } from './ssh-config';
import type { HostKeyAnswer, HostKeyQuestion } from './ssh-prompter';

export type HostKeyErrorCode = 'HOST_KEY_CHANGED' | 'HOST_KEY_REVOKED' | 'HOST_KEY_REFUSED' | 'HOST_KEY_UNKNOWN';

/** A host key that may not be used; the message says what was offered, what is on file and what to do. */
export class HostKeyError extends Error {
  override readonly name = 'HostKeyError';
  constructor(
    readonly code: HostKeyErrorCode,
    message: string,
    readonly details: { host: string; port: number; keyType: string; fingerprint: string; stored?: StoredKey },
    /** What to do about it, shown as the next step. */
    readonly remedy: string,
  ) {
    super(message);
  }
}

/** ssh_config StrictHostKeyChecking; `true`/`false` as `ssh -G` prints yes/no. */
export type StrictHostKeyChecking = 'yes' | 'ask' | 'accept-new' | 'no' | 'off' | boolean;

export interface VerifyHostKeyOptions {
  /** Host name (not the alias) the connection went to; used with `port` for the known_hosts name. */
  host: string;
  port: number;
  /** HostKeyAlias: looked up and remembered verbatim, without the port. */
  hostKeyAlias?: string;
  /** The server's key in SSH wire format, as ssh2's hostVerifier receives it. */
  blob: Buffer;
  /** known_hosts files to search: UserKnownHostsFile entries, then GlobalKnownHostsFile entries. */
  files: readonly string[];
  /** ssh_config RevokedHostKeys: keys refused whatever known_hosts says. */
  revokedHostKeys?: string;
  /** Where 'remember' writes; default the first of `files`. */
  rememberIn?: string;
  /** HashKnownHosts: write hashed names. */
  hash?: boolean;
  /**
   * 'yes' (or BatchMode) refuses unknown keys without asking. Every other value asks: Nodescope
   * never trusts a key silently, so 'accept-new' and 'no' are treated as 'ask'.
   */
  strict: StrictHostKeyChecking;
  prompt?: (question: HostKeyQuestion) => Promise<HostKeyAnswer>;
}

/**
 * Resolves when the key may be used, after asking about an unknown key if policy allows; throws a
 * HostKeyError otherwise. A changed or revoked key is never accepted, whatever the policy says.
 */
export async function verifyHostKey(opts: VerifyHostKeyOptions): Promise<void> {
  const name = opts.hostKeyAlias ?? knownHostsName(opts.host, opts.port);
  const keyType = keyTypeOfBlob(opts.blob);
  const fingerprint = fingerprintSha256(opts.blob);
  const details = { host: opts.host, port: opts.port, keyType, fingerprint };
  if (opts.revokedHostKeys !== undefined && (await isRevokedHostKey(opts.revokedHostKeys, opts.blob, name))) {
    throw new HostKeyError('HOST_KEY_REVOKED', `The ${keyType} host key ${fingerprint} offered by ${name} is revoked by ${opts.revokedHostKeys} (RevokedHostKeys); refusing to connect.`,
      details, `Ask the node's administrator for its current host key.`);
  }
  const result = checkKnownHosts(await readKnownHosts(opts.files), name, opts.blob);

  switch (result.status) {
    case 'known':
      return;
    case 'revoked':
      throw new HostKeyError(
        'HOST_KEY_REVOKED',
        `The ${keyType} host key ${fingerprint} offered by ${name} is marked @revoked in ${result.entry.file}:${result.entry.line}; refusing to connect.`,
        { ...details, stored: result.entry },
        `Ask the node's administrator for its current host key.`,
      );
    case 'changed': {
      const s = result.stored;
      const what = s.keyType === keyType ? `The ${keyType} host key for ${name} has CHANGED: the server offered ${fingerprint}, but ${s.file}:${s.line} has ${s.fingerprint}. `
        : `The host key for ${name} has CHANGED: the server presented a ${keyType} key (${fingerprint}), but ${s.file}:${s.line} has a ${s.keyType} key (${s.fingerprint}) for it and no ${keyType} key. `;
      throw new HostKeyError(
        'HOST_KEY_CHANGED',
        what +
          `Someone may be intercepting the connection, or the node was reinstalled.`,
        { ...details, stored: s },
        `If you have confirmed the new key with the node's administrator, remove the old one with: ssh-keygen -R "${name}" -f ${s.file}`,
      );
    }
    case 'unknown': {
      if (result.certAuthorities.length) {
        // The user trusts this host through a CA: asking about the plain key would go around that trust.
        throw unsupportedBySsh2(name, '@cert-authority host certificates',
          `${result.certAuthorities.map((c) => `${c.file}:${c.line}`).join(', ')} trusts a certificate authority for this host, and only OpenSSH checks host certificates`);
      }
      const rememberIn = opts.rememberIn ?? opts.files[0];
      const mayAsk = opts.strict !== 'yes' && opts.strict !== true && opts.prompt !== undefined;
      const answer = mayAsk ? await opts.prompt!({ host: opts.hostKeyAlias ?? opts.host, port: opts.port, keyType, fingerprint }) : 'cannot-ask';
      if (answer === 'cannot-ask') {
        const why = mayAsk || !opts.prompt ? 'there is no one to ask whether to trust it (no terminal)' : 'StrictHostKeyChecking is yes (or BatchMode is on)';
        const file = rememberIn ?? 'your known_hosts file';
        // ssh-keyscan writes the host's real name, which a HostKeyAlias entry would not match.
        const howToAdd = opts.hostKeyAlias
          ? 'for example by connecting once with ssh'
          : `for example: ssh-keyscan ${opts.port === 22 ? '' : `-p ${opts.port} `}${opts.host} >> ${file}, then check that ssh-keygen -lf ${file} shows ${fingerprint}`;
        throw new HostKeyError(
          'HOST_KEY_UNKNOWN',
          `The ${keyType} host key ${fingerprint} for ${name} is not in known_hosts and ${why}.`,
          details,
          `Confirm the fingerprint with the node's administrator, then add the key to ${file} (${howToAdd}) and retry.`,
        );
      }
      if (answer === 'once') return;
      if (answer === 'remember') {
        if (!rememberIn) throw new Error(`cannot remember the host key for ${name}: no known_hosts file is configured (UserKnownHostsFile)`);
        await rememberHostKey(rememberIn, opts.hostKeyAlias ?? opts.host, opts.hostKeyAlias ? 22 : opts.port, opts.blob, { hash: opts.hash ?? false });
        return;
      }
      throw new HostKeyError('HOST_KEY_REFUSED', `The ${keyType} host key ${fingerprint} for ${name} was refused; not connecting.`, details,
        'Connect again and accept the key once you have confirmed its fingerprint.');
    }
  }
}

export type HostKeyPolicy = Pick<VerifyHostKeyOptions, 'host' | 'port' | 'hostKeyAlias' | 'files' | 'rememberIn' | 'hash' | 'strict' | 'revokedHostKeys'>;

/**
 * The host key settings of a resolved ssh_config host, ready to spread into verifyHostKey:
 * user files are searched before global ones and remembered into the first user file; BatchMode
 * means nobody may be asked, as with ssh.
 */
export function hostKeyPolicy(resolved: ResolvedSshHost): HostKeyPolicy {
  const rememberIn = resolved.userKnownHostsFiles[0];
  return {
    host: resolved.hostname,
    port: resolved.port,
    ...(resolved.hostKeyAlias ? { hostKeyAlias: resolved.hostKeyAlias } : {}),
    ...(resolved.revokedHostKeys ? { revokedHostKeys: resolved.revokedHostKeys } : {}),
    files: [...resolved.userKnownHostsFiles, ...resolved.globalKnownHostsFiles],
    ...(rememberIn ? { rememberIn } : {}),
    hash: resolved.hashKnownHosts,
    strict: resolved.batchMode ? 'yes' : resolved.strictHostKeyChecking,
  };
}
