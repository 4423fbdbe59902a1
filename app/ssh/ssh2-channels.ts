import type { Duplex } from 'node:stream';
import type { Client, ClientChannel } from 'ssh2';
import type { ExecChannel, NodeChannels } from './node-channels';

/** The node's channels over the built-in ssh2 client. ssh2 throws synchronously once the connection is gone: a rejection here. */

function opened<T>(open: (cb: (err: Error | undefined, ch: ClientChannel) => void) => void, wrap: (ch: ClientChannel) => T): Promise<T> {
  return new Promise((resolve, reject) => {
    try {
      open((err, ch) => (err ? reject(err) : resolve(wrap(ch))));
    } catch (err) {
      reject(err);
    }
  });
}

/**
 * A short command's output, exit status and close can come in the same read as the channel's start: ssh2 emits
 * them before the caller (a promise later) listens. Data and close wait for a reader; the exit status is a bare
 * event, so it is caught here at once.
 */
function asExecChannel(ch: ClientChannel): ExecChannel {
  const exit = new Promise<number | null>((resolve) => {
    ch.once('exit', (code: number | null) => resolve(typeof code === 'number' ? code : null));
    ch.once('close', () => resolve(null));
  });
  return Object.assign(ch, { exit });
}

export function ssh2Channels(client: Client): NodeChannels {
  return {
    refusalAtOpen: true,
    // No pty: it would mangle binary streams.
    exec: (command) => opened((cb) => client.exec(command, { pty: false }, cb), asExecChannel),
    openUnixSocket: (path) => opened<Duplex>((cb) => client.openssh_forwardOutStreamLocal(path, cb), (ch) => ch),
    openTcp: (host, port) => opened<Duplex>((cb) => client.forwardOut('127.0.0.1', 0, host, port, cb), (ch) => ch),
  };
}
