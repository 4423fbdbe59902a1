import { knownHostsName, readKnownHosts, hostFieldMatches } from './known-hosts';

/** ssh2's default server host key algorithms, in its order (ssh-dss is supported but off by default). */
const SSH2_DEFAULT = ['ssh-ed25519', 'ecdsa-sha2-nistp256', 'ecdsa-sha2-nistp384', 'ecdsa-sha2-nistp521', 'rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa'];
const SSH2_SUPPORTED = new Set([...SSH2_DEFAULT, 'ssh-dss']);

/** An `ssh-rsa` key can sign with any of these; the SHA-2 ones first, as OpenSSH offers them. */
function algorithmsForKeyType(keyType: string): string[] {
  return keyType === 'ssh-rsa' ? ['rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa'] : [keyType];
}

/**
 * Puts the algorithms of already-known key types first, as OpenSSH does. Without this a host known
 * only by its RSA key would negotiate ed25519 and look like an unknown host.
 */
export function orderHostKeyAlgorithms(knownKeyTypes: readonly string[]): string[] {
  const known = knownKeyTypes.flatMap(algorithmsForKeyType).filter((a) => SSH2_SUPPORTED.has(a));
  return [...new Set([...known, ...SSH2_DEFAULT])];
}

/** For ssh2's `algorithms.serverHostKey`: the order for this host given its known_hosts entries. */
export async function preferredHostKeyAlgorithms(opts: { host: string; port: number; files: readonly string[]; hostKeyAlias?: string }): Promise<string[]> {
  const name = opts.hostKeyAlias ?? knownHostsName(opts.host, opts.port);
  const entries = await readKnownHosts(opts.files);
  const types = entries.filter((e) => !e.marker && hostFieldMatches(e.hosts, name)).map((e) => e.keyType);
  return orderHostKeyAlgorithms(types);
}
