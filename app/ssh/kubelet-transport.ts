import type { Duplex } from 'node:stream';
import { discoverKubeletSockets, KUBELET_SOCKET_CANDIDATES } from './remote-socket-probe';
import { createSocketBridge, type BridgeEvent, type BridgeMode, type SocketBridge } from './socket-bridge';
import type { SshTarget } from './ssh-connection';
import { latestError, SshError, type HopLabel } from './ssh-errors';
import { sessionFor, type SshSession, type SshSessionOptions } from './ssh-session';

/**
 * Everything between a kubelet client and the kubelet's socket on a node: an SSH session and a bridge to
 * the socket, whose streams (an SSH channel each) the client runs HTTP/2 on directly (app/grpc).
 *
 *   const t = await openKubeletTransport(target, { socketPath, prompter });
 *   const client = createKubeletClient({ target: t.open, socketPath: t.socketPath, transportError: t.lastError });
 *   ... when a call fails UNAVAILABLE, show t.lastError() ...
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
  /**
   * Gives up opening (the node was closed, the user pressed Ctrl-C): the SSH dial, prompt or socket
   * probe in progress is dropped at once and the promise rejects with a CLOSED SshError. Once the
   * transport is returned the signal does nothing more; close() ends it then.
   */
  signal?: AbortSignal;
  /** A session already made to the node (e.g. by `--api auto` probing for sockets); closed with the transport. */
  session?: SshSession;
}

export interface KubeletTransport {
  /** Opens one byte stream to the node's socket (an SSH channel, or the sudo bridge's); rejects with the real cause. */
  open(): Promise<Duplex>;
  /** The node's socket this transport reaches (given, or found by probing). */
  socketPath: string;
  session: SshSession;
  bridge: SocketBridge;
  /** The real cause behind a call's UNAVAILABLE (a connection that closed, a stream that could not open). */
  lastError(): SshError | null;
  close(): Promise<void>;
}

/** The first candidate that exists for the SSH user (or may, behind a directory it cannot enter); undefined when none does. */
export async function findKubeletSocket(session: SshSession, candidates: readonly string[]): Promise<string | undefined> {
  const conn = await session.connection();
  const probes = await discoverKubeletSockets(conn.channels, candidates);
  return (probes.find((p) => p.access === 'writable') ?? probes.find((p) => p.access === 'noperm'))?.path;
}

/** findKubeletSocket, else the first candidate (whose absence the first call then explains). */
async function discoverSocketPath(session: SshSession, candidates: readonly string[]): Promise<string> {
  return (await findKubeletSocket(session, candidates)) ?? candidates[0]!;
}

export async function openKubeletTransport(target: SshTarget | HopLabel, options: KubeletTransportOptions): Promise<KubeletTransport> {
  // The session gets no signal of its own: its close() is what drops its dial.
  const { signal, session: given, ...sessionOptions } = options;
  const cancelled = () =>
    new SshError('CLOSED', `Connecting to ${target.host}:${target.port} was cancelled`, 'Connect again when you need this node.');
  if (signal?.aborted) throw cancelled();
  const session = sessionFor(target, given, sessionOptions);
  // Settles the caller's promise at once, whatever the dropped dial or probe still does on its way out.
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      reject(cancelled());
      session.close();
    };
  });
  aborted.catch(() => {}); // Raced only while probing: an abort at another moment is not an unhandled rejection.
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const socketPath =
      options.socketPath ?? (await Promise.race([discoverSocketPath(session, options.socketCandidates ?? KUBELET_SOCKET_CANDIDATES), aborted]));
    const bridge = createSocketBridge(() => session.connection(), {
      socketPath,
      ...(options.bridgeMode ? { mode: options.bridgeMode } : {}),
      ...(options.sudoTemplate ? { sudoTemplate: options.sudoTemplate } : {}),
      ...(options.onBridgeEvent ? { onEvent: options.onBridgeEvent } : {}),
    });
    return {
      open: () => bridge.open(),
      socketPath,
      session,
      bridge,
      // A stream failure, or the SSH drop behind it: whichever came last explains a connection that closed.
      lastError: () => latestError(bridge.lastError(), session.lastError()),
      // The client's connection ends the streams it runs on; the session's end ends any other.
      close: async () => session.close(),
    };
  } catch (err) {
    session.close();
    throw err;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}
