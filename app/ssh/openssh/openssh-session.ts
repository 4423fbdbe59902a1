import { runSshG } from '../ssh-config-openssh';
import type { HopLabel } from '../ssh-errors';
import { createDialSession, type SshSession, type SshSessionOptions } from '../ssh-session';
import { labelOf } from './login-settings';
import { destinationFlags, findOpenSsh, type OpenSshDestination } from './openssh-client';
import { openOpenSshConnection, type OpenSshConnectionOptions } from './openssh-connection';

/**
 * A node's session through the user's own ssh: named for messages as ssh names it (`ssh -G`: the user, host
 * name and port after ssh_config), re-dialled like the built-in one. ssh's prompts go to the session's prompter
 * through the askpass helper: the CLI's terminal, the app's prompt dialogs.
 */

export type OpenSshSessionOptions = SshSessionOptions & Omit<OpenSshConnectionOptions, 'signal' | 'prompter'>;

/** Who ssh logs in as, and where, once ssh_config is applied. */
export async function openSshLabel(d: OpenSshDestination, env?: NodeJS.ProcessEnv): Promise<HopLabel> {
  const client = await findOpenSsh(env);
  return labelOf(await runSshG(client.binary, [...destinationFlags(d), '--', d.destination], client.env), d);
}

/** The session, and whom it logs in as where (for messages). */
export async function createOpenSshSession(d: OpenSshDestination, options: OpenSshSessionOptions): Promise<{ session: SshSession; label: HopLabel }> {
  const label = await openSshLabel(d, options.env);
  const { verbose, announce, env } = options;
  // The dial's prompter, not options.prompter: it also shows a host-key question as the session's state.
  const session = createDialSession(label, (o) => openOpenSshConnection(d, label, {
    prompter: o.prompter,
    ...(verbose ? { verbose } : {}),
    ...(announce ? { announce } : {}),
    ...(env ? { env } : {}),
    ...(o.signal ? { signal: o.signal } : {}),
    ...(o.connectTimeoutMs ? { connectTimeoutMs: o.connectTimeoutMs } : {}),
    ...(o.keepaliveIntervalMs ? { keepaliveIntervalMs: o.keepaliveIntervalMs } : {}),
    ...(o.keepaliveCountMax ? { keepaliveCountMax: o.keepaliveCountMax } : {}),
  }), options);
  return { session, label };
}
