import { startLocalForwarder } from './local-forwarder';
import { discoverKubeletSockets, KUBELET_SOCKET_CANDIDATES } from './remote-socket-probe';
import { createSocketBridge, type BridgeEvent, type BridgeMode, type SocketBridge } from './socket-bridge';
import type { SshTarget } from './ssh-connection';
import { latestError, type SshError } from './ssh-errors';
import { createSshSession, type SshSession, type SshSessionOptions } from './ssh-session';

/**
 * Everything between a grpc-js client and the kubelet's socket on a node: an SSH session,
 * a bridge to the socket, and a private local socket for grpc-js to dial.
 *
 *   const t = await openKubeletTransport(target, { socketPath, prompter });
 *   const client = new PodsClient(t.target, grpc.credentials.createInsecure(), grpcOptions);
 *   ... when grpc-js reports UNAVAILABLE, show t.lastError() ...
 *   client.close(); await t.close();
 */

export interface KubeletTransportOptions extends SshSessionOptions {
  /**
   * The Pods API socket on the node. Without one, the candidates are probed over the SSH connection
   * and the first that exists is used (the shipped path, then the documented one, by default).
   */
  socketPath?: string;
  socketCandidates?: readonly string[];
  bridgeMode?: BridgeMode;
  sudoTemplate?: string;
  onBridgeEvent?: (event: BridgeEvent) => void;
}

export interface KubeletTransport {
  /** `unix://...` for grpc-js. */
  target: string;
  /** The node's socket this transport reaches (given, or found by probing). */
  socketPath: string;
  session: SshSession;
  bridge: SocketBridge;
  /** The real cause behind grpc-js's ECONNRESET / "Failed to connect". */
  lastError(): SshError | null;
  close(): Promise<void>;
}

/** The first candidate that exists for the SSH user (or may, behind a directory it cannot enter), else the first. */
async function discoverSocketPath(session: SshSession, candidates: readonly string[]): Promise<string> {
  const conn = await session.connection();
  const probes = await discoverKubeletSockets(conn.client, candidates);
  return (probes.find((p) => p.access === 'writable') ?? probes.find((p) => p.access === 'noperm') ?? probes[0]!).path;
}

export async function openKubeletTransport(target: SshTarget, options: KubeletTransportOptions): Promise<KubeletTransport> {
  const session = createSshSession(target, options);
  let socketPath: string;
  try {
    socketPath = options.socketPath ?? (await discoverSocketPath(session, options.socketCandidates ?? KUBELET_SOCKET_CANDIDATES));
  } catch (err) {
    session.close();
    throw err;
  }
  const bridge = createSocketBridge(() => session.connection(), {
    socketPath,
    ...(options.bridgeMode ? { mode: options.bridgeMode } : {}),
    ...(options.sudoTemplate ? { sudoTemplate: options.sudoTemplate } : {}),
    ...(options.onBridgeEvent ? { onEvent: options.onBridgeEvent } : {}),
  });
  const forwarder = await startLocalForwarder(bridge);
  return {
    target: forwarder.target,
    socketPath,
    session,
    bridge,
    // A stream failure, or the SSH drop behind it: whichever came last explains grpc-js's ECONNRESET.
    lastError: () => latestError(bridge.lastError(), session.lastError()),
    close: async () => {
      await forwarder.close();
      session.close();
    },
  };
}
