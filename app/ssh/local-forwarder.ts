import { createServer, type Socket } from 'node:net';
import { pipeline, type Duplex } from 'node:stream';
import { batchedPipe } from './batched-pipe';
import { createPrivateSocketDir } from './private-socket-dir';

/**
 * grpc-js cannot be handed a socket of our own, so it dials a private local UNIX socket and
 * every accepted connection is piped into a fresh byte stream from the bridge (one SSH
 * channel each). grpc-js only ever reports `ECONNRESET` for what goes wrong behind the
 * socket, so the forwarder keeps the last real error for the UI.
 */

export interface ByteStreamSource {
  /** Opens one byte stream to the remote socket; rejects with the real cause. */
  open(): Promise<Duplex>;
  /** The source's own record of failures (e.g. bridge stderr that ends a stream cleanly); used instead of ours when present. */
  lastError?(): Error | null;
}

export interface LocalForwarder {
  /** Filesystem path of the local socket. */
  path: string;
  /** grpc-js target: `unix://<path>` (a `unix:` named pipe on Windows). */
  target: string;
  /** The last failure behind the socket (channel open, bridge, stream error), or null. */
  lastError(): Error | null;
  /** Stops accepting, drops open connections and removes the private directory. */
  close(): Promise<void>;
}

export async function startLocalForwarder(bridge: ByteStreamSource): Promise<LocalForwarder> {
  const privateDir = createPrivateSocketDir();
  const connections = new Set<Socket>();
  let lastError: Error | null = null;
  let closed = false;

  // allowHalfOpen: the client's FIN must reach the remote end without closing our reply side.
  const server = createServer({ pauseOnConnect: true, allowHalfOpen: true }, (local) => {
    connections.add(local);
    local.once('close', () => connections.delete(local));
    local.on('error', () => {
      // Reported through pipeline below; this only keeps an early reset from being unhandled.
    });
    bridge.open().then(
      (remote) => {
        if (local.destroyed || closed) {
          remote.destroy();
          return;
        }
        const onError = (err: NodeJS.ErrnoException | null) => {
          // A local peer that hangs up early is normal (grpc-js cancels); remote failures are not.
          if (err && err.code !== 'ERR_STREAM_PREMATURE_CLOSE') lastError = err;
          if (err) {
            local.destroy();
            remote.destroy();
          }
        };
        pipeline(local, remote, onError);
        batchedPipe(remote, local, onError);
        local.resume();
      },
      (err: Error) => {
        // Refuse the local connection so grpc-js sees a failed connect and backs off.
        lastError = err;
        local.destroy();
      },
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(privateDir.socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((err) => {
    privateDir.remove();
    throw err;
  });

  return {
    path: privateDir.socketPath,
    // grpc-js reads a Windows pipe as `unix:\\.\pipe\name`, a socket file as `unix:///path`.
    target: privateDir.dir ? `unix://${privateDir.socketPath}` : `unix:${privateDir.socketPath}`,
    lastError: () => (bridge.lastError ? bridge.lastError() : lastError),
    close: () =>
      new Promise<void>((resolve) => {
        if (closed) return resolve();
        closed = true;
        for (const c of connections) c.destroy();
        server.close(() => {
          privateDir.remove();
          resolve();
        });
      }),
  };
}
