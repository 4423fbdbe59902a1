import type { NodeChannels } from './node-channels';
import { runRemote, shellQuote } from './remote-exec';
import { socatAddressPath } from './socat-address';

/**
 * sshd answers every failed streamlocal open with the same "open failed" (reason 2), whether
 * the socket is missing, not ours, or forwarding is off. A short shell probe on the node tells
 * these apart, and finds which kubelet socket paths exist.
 */

/** Where the Pods API socket lives: the path kubelet ships, then the one in the KEP docs. */
export const KUBELET_SOCKET_CANDIDATES = [
  '/var/lib/kubelet/pods-api/pods-api.sock',
  '/var/lib/kubelet/pods/kubelet.sock',
] as const;

export type SocketAccess =
  /** We can connect: the socket exists and is writable by the SSH user. */
  | 'writable'
  /** A socket we cannot write, or a directory on the way we cannot enter (existence unknown). */
  | 'noperm'
  | 'missing'
  /** Something else than a socket is at that path. */
  | 'not-socket';

export interface SocketProbe {
  path: string;
  access: SocketAccess;
  /** Only for `writable`: whether something accepts connections on it (needs socat to tell; absent when socat did not get an answer in 5 s). */
  listening?: boolean;
  /** Absolute path of socat on the node, if installed. */
  socat?: string;
  /** Whether `sudo -n` may run the bridge command (only checked when asked). */
  sudoAllowed?: boolean;
}

const ACCESS_SCRIPT = (p: string) =>
  [
    `p=${shellQuote(p)}`,
    `if [ -S "$p" ]; then if [ -w "$p" ]; then echo access=writable; else echo access=noperm; fi`,
    `elif [ -e "$p" ]; then echo access=not-socket`,
    // A directory we may not enter hides whether the socket exists: find the nearest visible ancestor.
    `else d=$(dirname "$p"); while [ ! -e "$d" ] && [ "$d" != / ]; do d=$(dirname "$d"); done`,
    `  if [ -x "$d" ]; then echo access=missing; else echo access=noperm; fi`,
    `fi`,
  ].join('\n');

function parseLines(out: string): Record<string, string> {
  const r: Record<string, string> = {};
  for (const line of out.split('\n')) {
    const i = line.indexOf('=');
    if (i > 0) r[line.slice(0, i)] = line.slice(i + 1).trim();
  }
  return r;
}

/**
 * The probe of one path as a script for the login shell, printing `key=value` lines (parseSocketProbe reads
 * them); with `sudoCommand`, also whether `sudo -n -l` allows exactly that command.
 */
export function socketProbeScript(path: string, sudoCommand?: string): string {
  return [
    ACCESS_SCRIPT(path),
    `s=$(command -v socat 2>/dev/null) && echo socat="$s"`,
    `if [ -S "$p" ] && [ -w "$p" ] && [ -n "$s" ]; then`,
    // A kubelet that stops accepting (its queue full) would hold socat's connect, and the holder session
    // with it: given 5 s, it is said unknown rather than not listening.
    `  t=; command -v timeout >/dev/null 2>&1 && t='timeout 5'`,
    `  $t socat -u OPEN:/dev/null ${shellQuote(`UNIX-CONNECT:${socatAddressPath(path)}`)} 2>/dev/null; r=$?`,
    `  if [ $r = 0 ]; then echo listening=yes; elif [ $r = 124 ]; then echo listening=unknown; else echo listening=no; fi`,
    `fi`,
    ...(sudoCommand ? [`if sudo -n -l ${sudoCommand.replace(/^sudo\s+(-n\s+)?/, '')} >/dev/null 2>&1; then echo sudo=yes; else echo sudo=no; fi`] : []),
    'true',
  ].join('\n');
}

/** What socketProbeScript printed, as a probe; undefined when it printed no access line (it did not run). */
export function parseSocketProbe(path: string, stdout: string): SocketProbe | undefined {
  const v = parseLines(stdout);
  const access = v.access as SocketAccess | undefined;
  if (!access) return undefined;
  return {
    path,
    access,
    ...(v.listening === 'yes' || v.listening === 'no' ? { listening: v.listening === 'yes' } : {}),
    ...(v.socat ? { socat: v.socat } : {}),
    ...(v.sudo ? { sudoAllowed: v.sudo === 'yes' } : {}),
  };
}

/** Probes one path; with `sudoCommand`, also whether `sudo -n -l` allows exactly that command. */
export async function probeRemoteSocket(channels: NodeChannels, path: string, sudoCommand?: string): Promise<SocketProbe> {
  const { stdout, stderr, code } = await runRemote(channels, socketProbeScript(path, sudoCommand));
  const probe = parseSocketProbe(path, stdout);
  // e.g. a ForceCommand in sshd_config or authorized_keys runs instead of our script.
  if (!probe) throw new Error(`the check printed nothing usable (exit ${code}${stderr.trim() ? `: ${stderr.trim()}` : ''})`);
  return probe;
}

/** Reports, for each candidate, whether it exists for the SSH user (use a custom path first if the user gave one). */
export async function discoverKubeletSockets(
  channels: NodeChannels,
  candidates: readonly string[] = KUBELET_SOCKET_CANDIDATES,
): Promise<SocketProbe[]> {
  const found: SocketProbe[] = [];
  for (const path of candidates) found.push(await probeRemoteSocket(channels, path));
  return found;
}
