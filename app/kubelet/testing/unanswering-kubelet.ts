/**
 * A hostile kubelet for tests: a Pods API socket that takes every call (HTTP/2, as gRPC) and never answers
 * it ('silent'), or answers a ListPods with its headers and the first bytes of a message, then nothing more
 * ('stalls') or one byte at a time, every 20 ms, without end ('drips': a slow loris); or announces a message
 * of 600 MiB and stalls ('huge'). The streams stay open until the server stops, as a hung kubelet's would.
 */
import { createServer, type Http2Server, type Http2Session, type ServerHttp2Stream } from 'node:http2';

export interface UnansweringKubelet {
  /** Calls received, by path. */
  calls: string[];
  stop(): Promise<void>;
}

export async function startUnansweringKubelet(socketPath: string, mode: 'silent' | 'stalls' | 'drips' | 'huge' = 'silent'): Promise<UnansweringKubelet> {
  const calls: string[] = [];
  const sessions = new Set<Http2Session>();
  const server: Http2Server = createServer();
  server.on('session', (session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
    session.on('error', () => {});
  });
  server.on('stream', (stream: ServerHttp2Stream, headers) => {
    calls.push(String(headers[':path']));
    stream.on('error', () => {});
    stream.resume();
    if (mode === 'silent') return;
    stream.respond({ ':status': 200, 'content-type': 'application/grpc' });
    // A 5-byte gRPC prefix announcing 16 MiB (or 600 MiB), and the header of a pod field of 8 MiB.
    stream.write(Buffer.from([0, ...(mode === 'huge' ? [0x25, 0x80] : [0x01, 0]), 0, 0, 0x0a, 0x80, 0x80, 0x80, 0x04]));
    if (mode === 'drips') {
      const drip = setInterval(() => stream.write(Buffer.from([0x61])), 20);
      stream.on('close', () => clearInterval(drip));
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, resolve);
  });
  return {
    calls,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sessions) s.destroy();
        server.close(() => resolve());
      }),
  };
}
