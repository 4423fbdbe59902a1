import type { ConnectConfig } from 'ssh2';
import { knownHostsName, readKnownHosts, hostFieldMatches } from './known-hosts';
import { defaultHopAlgorithms, type HopAlgorithms } from './ssh-algorithms';

/** The signature algorithms a host key of this type can use (an `ssh-rsa` key signs with three). */
function algorithmsForKeyType(keyType: string): string[] {
  return keyType === 'ssh-rsa' ? ['rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa'] : [keyType];
}

/**
 * Puts the algorithms of already-known key types first, keeping `allowed`'s order otherwise, as
 * OpenSSH's order_hostkeyalgs does. Without this a host known only by its RSA key would negotiate
 * ed25519 and be refused as changed.
 */
export function orderHostKeyAlgorithms(knownKeyTypes: readonly string[], allowed: readonly string[]): string[] {
  const known = new Set(knownKeyTypes.flatMap(algorithmsForKeyType));
  return [...allowed.filter((a) => known.has(a)), ...allowed.filter((a) => !known.has(a))];
}

/** For ssh2's `algorithms.serverHostKey`: `allowed` ordered for this host given its known_hosts entries. */
export async function preferredHostKeyAlgorithms(opts: { host: string; port: number; files: readonly string[]; hostKeyAlias?: string; allowed: readonly string[] }): Promise<string[]> {
  const name = opts.hostKeyAlias ?? knownHostsName(opts.host, opts.port);
  const entries = await readKnownHosts(opts.files);
  const types = entries.filter((e) => !e.marker && hostFieldMatches(e.hosts, name)).map((e) => e.keyType);
  return orderHostKeyAlgorithms(types, opts.allowed);
}

type Ssh2Algorithms = NonNullable<ConnectConfig['algorithms']>;

/**
 * ssh2's `algorithms` for one hop: its ssh_config lists (OpenSSH's defaults when it has none), host
 * key algorithms in ssh's order for this host: known types first unless HostKeyAlgorithms is set.
 */
export async function connectAlgorithms(hop: { host: string; port: number; knownHostsFiles: readonly string[]; hostKeyAlias?: string; algorithms?: HopAlgorithms }): Promise<Ssh2Algorithms> {
  const lists = hop.algorithms ?? defaultHopAlgorithms();
  const serverHostKey = lists.preferKnownHostKeys
    ? await preferredHostKeyAlgorithms({
        host: hop.host,
        port: hop.port,
        files: hop.knownHostsFiles,
        ...(hop.hostKeyAlias ? { hostKeyAlias: hop.hostKeyAlias } : {}),
        allowed: lists.serverHostKey,
      })
    : lists.serverHostKey;
  // The lists hold only names ssh2 reported as supported, which its literal-union types cannot know.
  return { serverHostKey, kex: lists.kex, cipher: lists.cipher, hmac: lists.hmac } as Ssh2Algorithms;
}
