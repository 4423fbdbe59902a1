/**
 * A hostile kubelet REST port for tests, on 127.0.0.1: it accepts connections and then never answers
 * ('silent': neither a TLS handshake nor an HTTP answer), drips its HTTP headers a byte at a time
 * ('drips-headers'), sends its headers and then drips the body ('drips-body'), or answers /pods with
 * `bodyBytes` of body ('large', announced with Content-Length, or 'large-chunked' without it). Dripping
 * goes on every 20 ms until the client goes away.
 */
import { createServer, type Server, type Socket } from 'node:net';

export type HostileMode = 'silent' | 'drips-headers' | 'drips-body' | 'large' | 'large-chunked';

export interface HostileRestKubelet {
  port: number;
  /** Connections accepted so far. */
  connections(): number;
  stop(): Promise<void>;
}

function drip(socket: Socket, bytes: () => Buffer): void {
  const timer = setInterval(() => socket.write(bytes()), 20);
  socket.on('close', () => clearInterval(timer));
}

export async function startHostileRestKubelet(mode: HostileMode, bodyBytes = 0): Promise<HostileRestKubelet> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server: Server = createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    // Reads the request (and ignores it), so the client's writes never back up.
    socket.resume();
    if (mode === 'silent') return;
    if (mode === 'drips-headers') {
      const head = Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Padding: ');
      let i = 0;
      return drip(socket, () => (i < head.length ? head.subarray(i, ++i) : Buffer.from('a')));
    }
    if (mode === 'drips-body') {
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{');
      return drip(socket, () => Buffer.from(' '));
    }
    const chunked = mode === 'large-chunked';
    socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n${chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${bodyBytes}`}\r\n\r\n`);
    const piece = Buffer.alloc(64 * 1024, 0x20);
    let left = bodyBytes;
    const more = () => {
      while (left > 0 && !socket.destroyed) {
        const n = Math.min(left, piece.length);
        left -= n;
        const data = chunked ? Buffer.concat([Buffer.from(`${n.toString(16)}\r\n`), piece.subarray(0, n), Buffer.from('\r\n')]) : piece.subarray(0, n);
        if (!socket.write(data)) return void socket.once('drain', more);
      }
      if (chunked && !socket.destroyed) socket.end('0\r\n\r\n');
    };
    more();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the hostile REST kubelet has no TCP port');
  return {
    port: address.port,
    connections: () => accepted,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
