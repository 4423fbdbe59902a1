import { runSshG } from '../ssh-config-openssh';
import type { HopLabel } from '../ssh-errors';
import { createDialSession, type SshSession, type SshSessionOptions } from '../ssh-session';
import { destinationFlags, findOpenSsh, type OpenSshDestination } from './openssh-client';
import { openOpenSshConnection, type OpenSshConnectionOptions } from './openssh-connection';

/**
 * A node's session through the user's own ssh: named for messages as ssh names it (`ssh -G`: the user, host
 * name and port after ssh_config), re-dialled like the built-in one. Prompts are ssh's own: the terminal in the
 * CLI, the askpass helper in `askpassEnv` in the app.
 */

export type OpenSshSessionOptions = SshSessionOptions & Omit<OpenSshConnectionOptions, 'signal'>;

/** Who ssh logs in as, and where, once ssh_config is applied. */
export async function openSshLabel(d: OpenSshDestination, env?: NodeJS.ProcessEnv): Promise<HopLabel> {
  const client = await findOpenSsh(env);
  const { values } = await runSshG(client.binary, [...destinationFlags(d), '--', d.destination], client.env);
  const one = (k: string) => values.get(k)?.[0];
  return { host: one('hostname') ?? d.destination, port: Number(one('port') ?? 22), user: one('user') ?? '' };
}

/** The session, and whom it logs in as where (for messages). */
export async function createOpenSshSession(d: OpenSshDestination, options: OpenSshSessionOptions): Promise<{ session: SshSession; label: HopLabel }> {
  const label = await openSshLabel(d, options.env);
  const { askpassEnv, verbose, env } = options;
  const session = createDialSession(label, (o) => openOpenSshConnection(d, label, { ...(askpassEnv ? { askpassEnv } : {}), ...(verbose ? { verbose } : {}), ...(env ? { env } : {}), ...(o.signal ? { signal: o.signal } : {}) }), options);
  return { session, label };
}
