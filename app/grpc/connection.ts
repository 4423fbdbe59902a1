/**
 * One HTTP/2 connection to a gRPC server, made on a byte stream the dialer opens (`createConnection` hands
 * it to node:http2 as it is: an SSH channel needs no local socket in between), shared by every call of a
 * client, and dialled again when it is gone. A dial that fails (or a connection that closes before the
 * server's first SETTINGS) is retried only after a backoff (app/ssh/reconnect-backoff.ts); a call made
 * meanwhile fails at once with that failure, as grpc-js's calls do while their channel is in transient
 * failure, and the caller's own retry decides when to ask again.
 *
 * No keepalive PINGs: SSH keeps the link alive (and app/ssh/link-silence.ts tells when it stops), and the
 * kubelet's Go server answers frequent pings with GOAWAY too_many_pings; grpc-js ran with them off too.
 */
import { connect, type ClientHttp2Session, type ClientHttp2Stream, type OutgoingHttpHeaders } from 'node:http2';
import { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { backoffDelayMs, DEFAULT_BACKOFF, type BackoffPolicy } from '../ssh/reconnect-backoff';
import { grpcError, Status, type GrpcStatusError } from './grpc-error';
import { socketStream } from './socket-stream';
import type { StreamDialer } from './stream-dialer';

/** One round trip per 16 MiB over SSH, not per HTTP/2's default 64 KiB (ListPods 1000 at 50 ms RTT: 5.2 s vs 0.28 s; spike report §5). */
export const DEFAULT_WINDOW_BYTES = 16 * 1024 * 1024;

/** How long a server may take to answer the connection (its first SETTINGS): grpc-js's connect timeout. */
export const HANDSHAKE_TIMEOUT_MS = 20_000;

/** What HTTP/2 runs on (socket-stream.ts); a socket keeps the process alive only while calls run (`hold`). */
function carrier(duplex: Duplex): { stream: Duplex; hold(on: boolean): void } {
  if (!(duplex instanceof Socket)) return { stream: duplex, hold: () => {} };
  return { stream: socketStream(duplex), hold: (on) => void (on ? duplex.ref() : duplex.unref()) };
}

export interface GrpcConnectionOptions {
  dial: StreamDialer;
  /**
   * Each call's HTTP/2 receive window (default DEFAULT_WINDOW_BYTES). The connection's is twice it, so a
   * call whose reader waits (a list on a slow stdout) never holds the whole window from a watch beside it.
   */
  window?: number;
  /** Between failed dials; default DEFAULT_BACKOFF. */
  backoff?: BackoffPolicy;
  /** Default HANDSHAKE_TIMEOUT_MS. */
  handshakeTimeoutMs?: number;
}

export interface ConnectionStream {
  stream: ClientHttp2Stream;
  /** Whether the connection under the stream went away (the link dropped), as opposed to the stream alone ending. */
  dropped(): boolean;
}

export interface GrpcConnection {
  /** Opens a stream (dialling first when there is no connection); rejects with an UNAVAILABLE-shaped error when it cannot. */
  request(headers: OutgoingHttpHeaders): Promise<ConnectionStream>;
  /** Ends the connection and every call on it; later requests fail. */
  close(): void;
}

export function createGrpcConnection(options: GrpcConnectionOptions): GrpcConnection {
  const window = options.window ?? DEFAULT_WINDOW_BYTES;
  let current: Promise<ClientHttp2Session> | undefined;
  const sessions = new Set<ClientHttp2Session>();
  /** Calls running on each session: it keeps the process alive while there are any. */
  const running = new WeakMap<ClientHttp2Session, number>();
  /** Keeps each session and what it runs on holding the process alive, or lets go. */
  const holds = new WeakMap<ClientHttp2Session, (on: boolean) => void>();
  let failures = 0;
  let retryAt = 0;
  let lastFailure: GrpcStatusError | undefined;
  let closed = false;

  const closedError = () => grpcError(Status.UNAVAILABLE, 'the connection to the kubelet was closed');
  const failed = (err: unknown): GrpcStatusError => {
    failures++;
    retryAt = Date.now() + backoffDelayMs(failures, options.backoff ?? DEFAULT_BACKOFF);
    lastFailure = grpcError(Status.UNAVAILABLE, err instanceof Error ? err.message : String(err), err);
    return lastFailure;
  };

  /** `gone`: the session can take no more calls (closed, or GOAWAY). */
  const open = async (gone: () => void): Promise<ClientHttp2Session> => {
    const duplex = await options.dial().catch((err: unknown) => Promise.reject(failed(err)));
    if (closed) {
      duplex.destroy();
      throw closedError();
    }
    const carried = carrier(duplex);
    const session = connect('http://localhost', { createConnection: () => carried.stream, settings: { initialWindowSize: window }, maxSessionMemory: 64 });
    sessions.add(session);
    const hold = (on: boolean) => {
      if (on) session.ref();
      else session.unref();
      carried.hold(on);
    };
    holds.set(session, hold);
    // No call on it, no reason to keep the process alive (each stream holds it while it runs).
    hold(false);
    let answered = false;
    let lastError: Error | undefined;
    // A server that takes the connection and never speaks HTTP/2 would hold a watch (which has no deadline) forever.
    const handshakeMs = options.handshakeTimeoutMs ?? HANDSHAKE_TIMEOUT_MS;
    const handshake = setTimeout(() => session.destroy(new Error(`no HTTP/2 answer within ${handshakeMs / 1000} s`)), handshakeMs);
    handshake.unref();
    session.once('remoteSettings', () => {
      clearTimeout(handshake);
      answered = true;
      failures = 0;
    });
    // A connection closed as it connects (a mask changed, a node removed) is destroyed by then: setting its window would throw.
    session.once('connect', () => session.destroyed || session.setLocalWindowSize(window * 2));
    // Each call sees the failure through its own stream; this keeps it from being unhandled.
    session.on('error', (err) => (lastError = err));
    session.once('goaway', gone);
    session.once('close', () => {
      clearTimeout(handshake);
      gone();
      sessions.delete(session);
      // The session ends its socket; a stream of another kind (an SSH channel) is ended here, so none outlives it.
      carried.stream.destroy();
      duplex.destroy();
      if (!answered && !closed) failed(lastError ?? new Error('the connection closed before the server answered'));
    });
    return session;
  };

  const session = (): Promise<ClientHttp2Session> => {
    if (closed) return Promise.reject(closedError());
    if (current) return current;
    if (lastFailure && Date.now() < retryAt) return Promise.reject(lastFailure);
    const mine: Promise<ClientHttp2Session> = open(() => {
      if (current === mine) current = undefined;
    });
    current = mine;
    mine.catch(() => {
      if (current === mine) current = undefined;
    });
    return mine;
  };

  return {
    async request(headers) {
      const s = await session();
      if (closed) throw closedError();
      let stream: ClientHttp2Stream;
      try {
        stream = s.request(headers);
      } catch (err) {
        // The session closed between the dial and this call (ERR_HTTP2_INVALID_SESSION, GOAWAY).
        throw grpcError(Status.UNAVAILABLE, (err as Error).message, err);
      }
      const calls = (running.get(s) ?? 0) + 1;
      running.set(s, calls);
      if (calls === 1) holds.get(s)!(true);
      stream.once('close', () => {
        const left = running.get(s)! - 1;
        running.set(s, left);
        if (left === 0 && !s.destroyed) holds.get(s)!(false);
      });
      return { stream, dropped: () => s.destroyed || s.closed };
    },
    close() {
      closed = true;
      current = undefined;
      for (const s of sessions) s.destroy();
    },
  };
}
