/**
 * Opens the kubelet client a node command asked for: over SSH (ssh_config resolved like ssh, the
 * command line winning) to the Pods API socket or the kubelet's REST API (`--api rest`, or `auto` on a
 * node without a Pods API socket), or straight to a socket on this machine with --local. Says on stderr
 * which API the node is read from.
 */
import { createKubeletClient, type KubeletClient } from '../kubelet/kubelet-client';
import type { KubeletError } from '../kubelet/kubelet-error';
import type { KubeletTransport } from '../ssh/kubelet-transport';
import type { JumpConnectionPool } from '../ssh/shared-jump-connections';
import type { SshHop, SshTarget } from '../ssh/ssh-connection';
import type { SshSession } from '../ssh/ssh-session';
import type { SshPrompter } from '../ssh/ssh-prompter';
import { type NodeCommandOptions } from './node-options';
import { UsageError } from './usage-error';
import { printError } from './terminal-text';

export interface KubeletConnection {
  client: KubeletClient;
  /** Where the socket (or the REST port) is, for messages. */
  socketPath: string;
  /** Over SSH: tells when the node stops answering (since when) and answers again (null); see SshSession.onSilence. */
  onSilence?(listener: (silentSince: number | null) => void): () => void;
  /** The SSH session it runs over (none with --local): other reads of the node share it. Closed with the connection. */
  session?: SshSession;
  close(): Promise<void>;
}

/** Tells the user why nothing happens yet while the kubelet initializes or rate-limits us. */
function announceRetry(err: KubeletError, delayMs: number): void {
  printError(`nodescope: ${err.message}; retrying in ${(delayMs / 1000).toFixed(1)} s`);
}

/** The SSH target of a node command: ssh_config, the command line's -l -p -i -J -F, and --known-hosts. */
export async function resolveNodeTarget(opts: NodeCommandOptions): Promise<SshTarget> {
  const { resolveSshTarget } = await import('../ssh/ssh-target');
  const { knownHosts, ...overrides } = opts.ssh;
  let target;
  try {
    target = await resolveSshTarget(opts.node, overrides);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  // e.g. ControlMaster: used by ssh, not by the built-in transport; said once, as ssh -v would.
  for (const notice of [...target.proxyJump, target].flatMap((hop) => hop.notices ?? [])) printError(`nodescope: ${notice}`);
  if (knownHosts) {
    const pin = (hop: SshHop): SshHop => ({ ...hop, knownHostsFiles: [knownHosts] });
    target = { ...pin(target), proxyJump: target.proxyJump.map(pin) };
  }
  return target;
}

/** What the connections of one multi-source command share: one terminal for questions, one login per jump host. */
export interface SharedConnections {
  prompter: SshPrompter;
  jumpPool: JumpConnectionPool;
}

/** `closePrompter`: closes the command's own terminal prompter, none when it is shared. */
async function connectRest(target: SshTarget, opts: NodeCommandOptions, prompter: SshPrompter, closePrompter: () => void, session: SshSession): Promise<KubeletConnection> {
  const [{ defaultStateDir }, { defaultPinsFile }, { KUBELET_PORT, KUBELET_READ_ONLY_PORT, openKubeletRest }] = await Promise.all([
    import('../host/state-dir'),
    import('../kubelet-rest/kubelet-certificate-pins'),
    import('../kubelet-rest/kubelet-rest-connection'),
  ]);
  const { rest } = opts;
  const port = rest.port ?? (rest.readOnly ? KUBELET_READ_ONLY_PORT : KUBELET_PORT);
  const conn = await openKubeletRest(target, {
    prompter,
    session,
    port,
    readOnly: rest.readOnly,
    credentials: rest.credentials,
    pinsFile: rest.pinsFile ?? defaultPinsFile(defaultStateDir()),
    ...(rest.caFile ? { caFile: rest.caFile } : {}),
    ...(rest.tcpBridgeCommand ? { tcpBridgeCommand: rest.tcpBridgeCommand } : {}),
    ...(rest.pollIntervalMs ? { pollIntervalMs: rest.pollIntervalMs } : {}),
    ...(opts.callTimeoutMs ? { callTimeoutMs: opts.callTimeoutMs } : {}),
    ...(opts.mask ? { mask: opts.mask } : {}),
    onChannelEvent: (e) => {
      if (e.type === 'switched-to-command') printError(`nodescope: ${e.reason}; using \`${e.command}\` on the node`);
    },
  });
  printError(`nodescope: reading ${opts.node} from the kubelet REST API (${rest.readOnly ? 'http' : 'https'}://127.0.0.1:${port} on the node)`);
  return {
    client: conn.client,
    socketPath: `127.0.0.1:${port}`,
    onSilence: session.onSilence,
    session,
    close: async () => {
      await conn.close();
      session.close();
      closePrompter();
    },
  };
}

export async function connectToKubelet(opts: NodeCommandOptions, shared?: SharedConnections): Promise<KubeletConnection> {
  const api = opts.api === 'rest' ? 'auto' : opts.api;
  const common = { api, ...(opts.mask ? { mask: opts.mask } : {}), ...(opts.callTimeoutMs ? { callTimeoutMs: opts.callTimeoutMs } : {}), retry: { onRetry: announceRetry } };
  if (opts.local !== undefined) {
    const client = createKubeletClient({ target: opts.local, socketPath: opts.local, ...common });
    return { client, socketPath: opts.local, close: async () => client.close() };
  }

  // The SSH half (ssh2 and its crypto) is loaded only when used: --local starts faster without it.
  const [{ findKubeletSocket, openKubeletTransport }, { KUBELET_SOCKET_CANDIDATES }, { createSshSession }, { terminalPrompter }] = await Promise.all([
    import('../ssh/kubelet-transport'),
    import('../ssh/remote-socket-probe'),
    import('../ssh/ssh-session'),
    import('./terminal-prompter'),
  ]);
  // Without --socket the transport probes the node: the shipped socket first, or the documented one for --api documented.
  const socketCandidates = opts.api === 'documented' ? [...KUBELET_SOCKET_CANDIDATES].reverse() : KUBELET_SOCKET_CANDIDATES;
  const target = await resolveNodeTarget(opts);
  const own = shared ? undefined : terminalPrompter();
  const prompter = shared?.prompter ?? own!;
  const closePrompter = () => own?.close();
  const session = createSshSession(target, { prompter, ...(shared ? { jumpPool: shared.jumpPool } : {}) });
  let transport: KubeletTransport;
  try {
    if (opts.api === 'rest') return await connectRest(target, opts, prompter, closePrompter, session);
    let socketPath = opts.socketPath;
    if (!socketPath && opts.api === 'auto') {
      socketPath = await findKubeletSocket(session, socketCandidates);
      if (!socketPath) {
        printError(`nodescope: no Pods API socket on ${opts.node} (looked for ${socketCandidates.join(', ')}); trying the kubelet REST API`);
        return await connectRest(target, opts, prompter, closePrompter, session);
      }
    }
    transport = await openKubeletTransport(target, {
      ...(socketPath ? { socketPath } : { socketCandidates }),
      prompter,
      session,
      bridgeMode: opts.sudo || opts.sudoCommand ? 'sudo' : 'auto',
      ...(opts.sudoCommand ? { sudoTemplate: opts.sudoCommand } : {}),
      onBridgeEvent: (e) => {
        if (e.type === 'switched-to-sudo') printError(`nodescope: ${e.reason}; using \`${e.command}\``);
      },
    });
  } catch (err) {
    session.close();
    closePrompter();
    throw err;
  }
  const { socketPath } = transport;
  printError(`nodescope: reading ${opts.node} from the Pods API socket ${socketPath}`);
  const client = createKubeletClient({ target: transport.target, socketPath, transportError: () => transport.lastError(), ...common });
  return {
    client,
    socketPath,
    onSilence: session.onSilence,
    session: transport.session,
    close: async () => {
      client.close();
      await transport.close();
      closePrompter();
    },
  };
}
