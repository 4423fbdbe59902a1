import type { Duplex, Readable } from 'node:stream';
import type { SocketProbe } from './remote-socket-probe';

/**
 * What rides a node's SSH connection, whichever transport carries it (the built-in ssh2 client, or the user's
 * own OpenSSH client through a ControlMaster): commands, and byte streams to a UNIX socket or a TCP port as
 * seen from the node. Consumers (the Pods API bridge, kubelet REST, logs, node info) use only this.
 */

/** A command running on the node, without a pty: its stdin and stdout are this stream, its stderr beside it. */
export interface ExecChannel extends Duplex {
  readonly stderr: Readable;
  /**
   * The command's exit status: null when a signal ended it or the channel closed without a status (the
   * connection dropped). Settled by the time the channel emits 'close'.
   */
  readonly exit: Promise<number | null>;
  /** Ends the command's channel. */
  close(): void;
}

/** RFC 4254 §5.1 reasons a channel open is refused, as `reason` on the rejection. */
export const OPEN_ADMINISTRATIVELY_PROHIBITED = 1;
export const OPEN_CONNECT_FAILED = 2;

/** A refused open: `reason` says why when the transport knows (sshd says "open failed" for a missing socket and for forwarding off alike). */
export type ChannelOpenError = Error & { reason?: number };

export interface NodeChannels {
  /**
   * Whether openUnixSocket rejects when sshd refuses the stream (ssh2's channel open failure). OpenSSH's `-W`
   * and forwarded sockets say nothing at open: the stream just ends, so a caller that must know looks first.
   */
  readonly refusalAtOpen: boolean;
  /**
   * What the connection found at the UNIX socket `path` on the node as it was made, when it looked (OpenSSH's
   * holder session looks at the sockets it forwards: no session of a probe's own); undefined when it did not.
   */
  lookedAt?(path: string): Promise<SocketProbe | undefined>;
  /** Runs `command` through the login shell on the node (quote every word: see shellQuote); resolves once it started. */
  exec(command: string): Promise<ExecChannel>;
  /** A byte stream to the UNIX socket at `path` on the node (a connect as the SSH user). */
  openUnixSocket(path: string): Promise<Duplex>;
  /** A byte stream to `host:port` as the node reaches it (the kubelet's 127.0.0.1:10250). */
  openTcp(host: string, port: number): Promise<Duplex>;
}
