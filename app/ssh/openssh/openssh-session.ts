import type { SshGOutput } from '../ssh-config-openssh';
import type { HopLabel } from '../ssh-errors';
import { createDialSession, type SshSession, type SshSessionOptions } from '../ssh-session';
import { dialConfig } from './dial-config';
import { labelOf } from './login-settings';
import { findOpenSsh, type OpenSshDestination } from './openssh-client';
import { openOpenSshConnection, type OpenSshConnectionOptions } from './openssh-connection';

/**
 * A node's session through the user's own ssh: named for messages as ssh names it (`ssh -G`: the user, host
 * name and port after ssh_config), re-dialled like the built-in one. ssh's prompts go to the session's prompter
 * through the askpass helper: the CLI's terminal, the app's prompt dialogs.
 */

export type OpenSshSessionOptions = SshSessionOptions & Omit<OpenSshConnectionOptions, 'signal' | 'prompter'>;

/** The session, and whom it logs in as where (for messages). */
export async function createOpenSshSession(d: OpenSshDestination, options: OpenSshSessionOptions): Promise<{ session: SshSession; label: HopLabel }> {
  const { verbose, announce, env, forwardSockets } = options;
  const client = await findOpenSsh(env);
  // Who ssh logs in as, and where, once ssh_config is applied; the same run serves the first dial, made now.
  let nodeConfig: SshGOutput | undefined = await dialConfig(client)(d);
  const label = labelOf(nodeConfig, d);
  // The dial's prompter, not options.prompter: it also shows a host-key question as the session's state.
  const session = createDialSession(label, (o) => {
    const known = nodeConfig;
    // A re-dial asks ssh afresh: ssh_config may have been edited since.
    nodeConfig = undefined;
    return openOpenSshConnection(d, label, {
      prompter: o.prompter,
      ...(known ? { nodeConfig: known } : {}),
      ...(forwardSockets ? { forwardSockets } : {}),
      ...(verbose ? { verbose } : {}),
      ...(announce ? { announce } : {}),
      ...(env ? { env } : {}),
      ...(o.signal ? { signal: o.signal } : {}),
      ...(o.onProgress ? { onProgress: o.onProgress } : {}),
      ...(o.connectTimeoutMs ? { connectTimeoutMs: o.connectTimeoutMs } : {}),
      ...(o.keepaliveIntervalMs ? { keepaliveIntervalMs: o.keepaliveIntervalMs } : {}),
      ...(o.keepaliveCountMax ? { keepaliveCountMax: o.keepaliveCountMax } : {}),
    });
  }, options);
  return { session, label };
}
