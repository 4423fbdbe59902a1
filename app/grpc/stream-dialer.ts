import { connect } from 'node:net';
import type { Duplex } from 'node:stream';

/**
 * Opens one byte stream to a gRPC server, on which the client runs its HTTP/2 connection: a socket on this
 * machine (localSocketDialer), or a stream another layer opened (the SSH transport's channel to the
 * node's socket, app/ssh/kubelet-transport.ts). Rejects with the real cause when it cannot.
 */
export type StreamDialer = () => Promise<Duplex>;

/** The socket path of a target: `unix:///path`, `unix:/path` or a bare path. */
export function socketPathOfTarget(target: string): string {
  return target.replace(/^unix:(\/\/)?/, '');
}

/** A UNIX socket on this machine (`unix:///path`, `unix:/path` or a bare path); resolves once connected. */
export function localSocketDialer(target: string): StreamDialer {
  const path = socketPathOfTarget(target);
  return () =>
    new Promise((resolve, reject) => {
      const socket = connect(path);
      socket.once('error', reject);
      socket.once('connect', () => {
        socket.off('error', reject);
        resolve(socket);
      });
    });
}
