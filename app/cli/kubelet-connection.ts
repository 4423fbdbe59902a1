/**
 * Opens the kubelet client a node command asked for: over SSH (ssh_config resolved like ssh, the
 * command line winning), or straight to a socket on this machine with --local.
 */
import { createKubeletClient, type KubeletClient } from '../kubelet/kubelet-client';
import type { KubeletError } from '../kubelet/kubelet-error';
import type { KubeletTransport } from '../ssh/kubelet-transport';
import type { JumpConnectionPool } from '../ssh/shared-jump-connections';
import type { SshPrompter } from '../ssh/ssh-prompter';
import type { SshHop } from '../ssh/ssh-connection';
import { CliUsageError, type NodeCommandOptions } from './node-options';
import { printError } from './terminal-text';

export interface KubeletConnection {
  client: KubeletClient;
  /** Where the socket is, for messages. */
  socketPath: string;
  close(): Promise<void>;
}

/** Tells the user why nothing happens yet while the kubelet initializes or rate-limits us. */
function announceRetry(err: KubeletError, delayMs: number): void {
  printError(`nodescope: ${err.message}; retrying in ${(delayMs / 1000).toFixed(1)} s`);
}

/** What the connections of one multi-source command share: one terminal for questions, one login per jump host. */
export interface SharedConnections {
  prompter: SshPrompter;
  jumpPool: JumpConnectionPool;
}

export async function connectToKubelet(opts: NodeCommandOptions, shared?: SharedConnections): Promise<KubeletConnection> {
  const common = { api: opts.api, ...(opts.mask ? { mask: opts.mask } : {}), retry: { onRetry: announceRetry } };
  if (opts.local !== undefined) {
    const client = createKubeletClient({ target: opts.local, socketPath: opts.local, ...common });
    return { client, socketPath: opts.local, close: async () => client.close() };
  }

  // The SSH half (ssh2 and its crypto) is loaded only when used: --local starts faster without it.
  const [{ openKubeletTransport }, { KUBELET_SOCKET_CANDIDATES }, { resolveSshTarget }, { terminalPrompter }] = await Promise.all([
    import('../ssh/kubelet-transport'),
    import('../ssh/remote-socket-probe'),
    import('../ssh/ssh-target'),
    import('./terminal-prompter'),
  ]);
  // Without --socket the transport probes the node: the shipped socket first, or the documented one for --api documented.
  const socketCandidates = opts.api === 'documented' ? [...KUBELET_SOCKET_CANDIDATES].reverse() : KUBELET_SOCKET_CANDIDATES;
  const { knownHosts, ...overrides } = opts.ssh;
  let target;
  try {
    target = await resolveSshTarget(opts.node, overrides);
  } catch (err) {
    throw new CliUsageError((err as Error).message);
  }
  if (knownHosts) {
    const pin = (hop: SshHop): SshHop => ({ ...hop, knownHostsFiles: [knownHosts] });
    target = { ...pin(target), proxyJump: target.proxyJump.map(pin) };
  }
  const own = shared ? undefined : terminalPrompter();
  const prompter = shared?.prompter ?? own!;
  let transport: KubeletTransport;
  try {
    transport = await openKubeletTransport(target, {
      ...(opts.socketPath ? { socketPath: opts.socketPath } : { socketCandidates }),
      prompter,
      ...(shared ? { jumpPool: shared.jumpPool } : {}),
      bridgeMode: opts.sudo || opts.sudoCommand ? 'sudo' : 'auto',
      ...(opts.sudoCommand ? { sudoTemplate: opts.sudoCommand } : {}),
      onBridgeEvent: (e) => {
        if (e.type === 'switched-to-sudo') printError(`nodescope: ${e.reason}; using \`${e.command}\``);
      },
    });
  } catch (err) {
    own?.close();
    throw err;
  }
  const { socketPath } = transport;
  const client = createKubeletClient({ target: transport.target, socketPath, transportError: () => transport.lastError(), ...common });
  return {
    client,
    socketPath,
    close: async () => {
      client.close();
      await transport.close();
      own?.close();
    },
  };
}
