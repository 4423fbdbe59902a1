import { shellQuote } from '../remote-exec';
import { ensureMaster, type MasterOptions } from './control-master';
import type { DialConfig } from './dial-config';
import { destinationFlags, type OpenSshClient, type OpenSshDestination } from './openssh-client';

/**
 * Nodes behind one jump host share one login to it: each jump host gets a master of its own, and the
 * node's ProxyJump becomes a ProxyCommand that goes through that master (`ssh -S … -W [%h]:%p jump`),
 * which is how OpenSSH itself shares a hop. A user's own ProxyCommand is left to ssh as written.
 */

/** `[user@]host[:port]` of a ProxyJump list (ssh://user@host:port too). */
export function parseJump(spec: string): { host: string; user?: string; port?: number } {
  const s = spec.replace(/^ssh:\/\//, '');
  const at = s.lastIndexOf('@');
  const user = at >= 0 ? s.slice(0, at) : undefined;
  const rest = at >= 0 ? s.slice(at + 1) : s;
  const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(rest) ?? /^([^:]+)(?::(\d+))?$/.exec(rest);
  const host = m?.[1] ?? rest;
  return { host, ...(user ? { user } : {}), ...(m?.[2] ? { port: Number(m[2]) } : {}) };
}

/** ssh expands % tokens in a ProxyCommand: a literal % is %%. */
const word = (w: string) => shellQuote(w).replaceAll('%', '%%');

/** The ProxyCommand that reaches %h:%p through the master of `jump` (ssh runs it with `exec` in front). */
function proxyCommandThrough(client: OpenSshClient, jump: OpenSshDestination, muxFlags: string[]): string {
  const argv = [...destinationFlags(jump), ...muxFlags, '-W', '[%h]:%p', '--', jump.destination];
  return `ProxyCommand=${[client.binary, ...argv].map((a) => (a === '[%h]:%p' ? a : word(a))).join(' ')}`;
}

export async function throughSharedJumps(client: OpenSshClient, d: OpenSshDestination, config: DialConfig, options: (hop: string) => MasterOptions): Promise<OpenSshDestination> {
  const { values } = await config(d);
  const jumps = values.get('proxyjump')?.[0];
  const command = values.get('proxycommand')?.[0];
  if (!jumps || jumps === 'none' || (command && command !== 'none')) return d;
  let previous: { hop: OpenSshDestination; muxFlags: string[] } | undefined;
  for (const spec of jumps.split(',')) {
    const { host, user, port } = parseJump(spec.trim());
    const named: OpenSshDestination = {
      destination: host,
      ...(user ? { user } : {}),
      ...(port ? { port } : {}),
      ...(d.configFile ? { configFile: d.configFile } : {}),
      ...(d.knownHosts ? { knownHosts: d.knownHosts } : {}),
    };
    // The first jump host may sit behind jump hosts of its own (its ssh_config ProxyJump).
    const hop = previous ? { ...named, extraOptions: [proxyCommandThrough(client, previous.hop, previous.muxFlags)] } : await throughSharedJumps(client, named, config, options);
    // Its settings as ssh_config names it: the ProxyCommand that places it changes none that a master reads.
    const master = await ensureMaster(client, hop, await config(named), options(host));
    previous = { hop, muxFlags: master.muxFlags };
  }
  const { proxyJump: _dropped, ...rest } = d;
  return { ...rest, extraOptions: [...(d.extraOptions ?? []), proxyCommandThrough(client, previous!.hop, previous!.muxFlags)] };
}
