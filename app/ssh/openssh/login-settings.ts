import { runSshG, type SshGOutput } from '../ssh-config-openssh';
import { connectTimeoutMs, keepaliveOf, type OpenSshOptions } from '../ssh-connection';
import type { HopLabel } from '../ssh-errors';
import { destinationFlags, type OpenSshClient, type OpenSshDestination } from './openssh-client';

/**
 * What a login through ssh is held to, from the user's ssh_config as `ssh -G` evaluates it, with the
 * built-in transport's defaults where it sets nothing: ssh itself waits forever for a banner without
 * ConnectTimeout, and sends no keepalives without ServerAliveInterval (a dead link then waits for TCP).
 */

export type LoginOverrides = Pick<OpenSshOptions, 'connectTimeoutMs' | 'keepaliveIntervalMs' | 'keepaliveCountMax'>;

export interface LoginSettings {
  /** Who ssh logs in as, where (for messages). */
  label: HopLabel;
  /** ConnectTimeout, in ms: ssh's for reaching the host and its banner, ours again for the login after the host key. */
  connectTimeoutMs: number;
  /** ServerAliveInterval in ms (whole seconds, as ssh takes it) and ServerAliveCountMax. */
  keepalive: { intervalMs: number; countMax: number };
  /** The -o flags that give the master these settings. */
  flags: string[];
  /** Whether ssh_config names a ControlPath (a master of the user's own may be running there). */
  userControlPath: boolean;
}

/** Who ssh logs in as, and where, from `ssh -G`. */
export function labelOf({ values }: SshGOutput, d: OpenSshDestination): HopLabel {
  const one = (k: string) => values.get(k)?.[0];
  return { host: one('hostname') ?? d.destination, port: Number(one('port') ?? 22), user: one('user') ?? '' };
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

export async function loginSettings(client: OpenSshClient, d: OpenSshDestination, overrides: LoginOverrides = {}): Promise<LoginSettings> {
  const g = await runSshG(client.binary, [...destinationFlags(d), '--', d.destination], client.env);
  const number = (k: string) => {
    const n = Number(g.values.get(k)?.[0]);
    return Number.isFinite(n) && n > 0 ? n : undefined;
  };
  const timeoutMs = connectTimeoutMs({ connectTimeout: number('connecttimeout') }, overrides);
  const given = keepaliveOf({ serverAliveInterval: number('serveraliveinterval'), serverAliveCountMax: number('serveralivecountmax') }, overrides);
  const keepalive = { intervalMs: seconds(given.intervalMs) * 1000, countMax: given.countMax };
  return {
    label: labelOf(g, d),
    connectTimeoutMs: timeoutMs,
    keepalive,
    flags: ['-o', `ConnectTimeout=${seconds(timeoutMs)}`, '-o', `ServerAliveInterval=${keepalive.intervalMs / 1000}`, '-o', `ServerAliveCountMax=${keepalive.countMax}`],
    // `ssh -G` prints no controlpath line when none is set ("none" when set so).
    userControlPath: ![undefined, 'none'].includes(g.values.get('controlpath')?.[0]),
  };
}
