import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';

/**
 * A socket of this machine (a local kubelet socket, the socket an OpenSSH master forwards) as a JS stream, which
 * node:http2 then runs on as it runs on an SSH channel. On a socket it reads natively, and there (Node 20) a session
 * destroyed while one of its streams has ended but not yet closed (a client closed as its calls finish) corrupts
 * the heap: the process dies in malloc. Hand-written rather than Duplex.from: its end must complete at once, as an
 * SSH channel's does, for node:http2 asserts (an uncaught exception) when it writes while an end it asked for is
 * still under way, which it does when the server went away first.
 */
export function socketStream(socket: Socket): Duplex {
  let ended = false;
  const stream = new Duplex({
    read: () => void socket.resume(),
    write: (chunk: Buffer, _encoding, done) => void socket.write(chunk, (err) => done(err ?? null)),
    final: (done) => {
      socket.end();
      done();
    },
    destroy: (err, done) => {
      socket.destroy();
      done(err);
    },
  });
  socket.on('data', (chunk: Buffer) => stream.push(chunk) || socket.pause());
  socket.on('end', () => {
    ended = true;
    stream.push(null);
  });
  socket.on('error', (err) => stream.destroy(err));
  // After its end, what the socket sent is still to be read: the stream then ends as a stream does, once it has been.
  socket.on('close', () => ended || stream.destroy());
  return stream;
}
