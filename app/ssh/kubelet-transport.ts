import { startLocalForwarder } from './local-forwarder';
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
  /** The Pods API socket on the node. */
  socketPath: string;
  bridgeMode?: BridgeMode;
  sudoTemplate?: string;
  onBridgeEvent?: (event: BridgeEvent) => void;
}

export interface KubeletTransport {
  /** `unix://...` for grpc-js. */
  target: string;
  session: SshSession;
  bridge: SocketBridge;
  /** The real cause behind grpc-js's ECONNRESET / "Failed to connect". */
  lastError(): SshError | null;
  close(): Promise<void>;
}

export async function openKubeletTransport(target: SshTarget, options: KubeletTransportOptions): Promise<KubeletTransport> {
  const session = createSshSession(target, options);
  const bridge = createSocketBridge(() => session.connection(), {
    socketPath: options.socketPath,
    ...(options.bridgeMode ? { mode: options.bridgeMode } : {}),
    ...(options.sudoTemplate ? { sudoTemplate: options.sudoTemplate } : {}),
    ...(options.onBridgeEvent ? { onEvent: options.onBridgeEvent } : {}),
  });
  const forwarder = await startLocalForwarder(bridge);
  return {
    target: forwarder.target,
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
