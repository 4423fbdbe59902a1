/**
 * One gRPC call on a connection: the request sent as one message, the response's bytes handed on as they
 * come, and its end read as grpc-js reads it: the status from the trailers (or from the headers of a
 * trailers-only answer), a connection gone before any status as UNAVAILABLE (the transport's real cause
 * is then shown), a stream the server reset by its RST_STREAM code (grpc-error.ts).
 */
import { constants, type ClientHttp2Stream, type IncomingHttpHeaders, type IncomingHttpStatusHeader } from 'node:http2';
import type { ConnectionStream, GrpcConnection } from './connection';
import { grpcError, resetStatus, Status, statusOf } from './grpc-error';
import { grpcFrame } from './message-reader';

export interface CallHandlers {
  /** The answer has begun (its headers are in). */
  begun?(): void;
  /** Bytes of the response body, in order; what this throws ends the call with it. */
  data(chunk: Buffer): void;
  /** Called once: null when the status is OK, else the failure (a grpc-error.ts shape, or what `data` threw). */
  end(err: Error | null): void;
}

export interface GrpcCall {
  /** Stops reading (the server then holds back, within the window) until resume(). */
  pause(): void;
  resume(): void;
  /** Ends the call with CANCELLED and tells the server. */
  cancel(): void;
  /** Ends the call with `err` and tells the server. */
  fail(err: Error): void;
}

export interface CallOptions {
  /** gRPC metadata (the field mask, grpc-timeout), sent as request headers. */
  headers?: Record<string, string>;
}

export function startCall(connection: GrpcConnection, path: string, request: Uint8Array, options: CallOptions, handlers: CallHandlers): GrpcCall {
  let stream: ClientHttp2Stream | undefined;
  let done = false;
  let paused = false;
  const finish = (err: Error | null) => {
    if (done) return;
    done = true;
    if (stream && !stream.closed) stream.close(constants.NGHTTP2_CANCEL);
    handlers.end(err);
  };
  const run = ({ stream: s, dropped }: ConnectionStream) => {
    stream = s;
    /** A failure of the connection under the stream (not the stream's own reset), as grpc-js keeps it. */
    let linkError: Error | undefined;
    // Listened for first: a stream this call no longer wants (cancelled while the connection was dialled) is still
    // pending until the connection is up, and a dial that then fails destroys it with that failure, which an
    // 'error' nobody listens for would throw out of the process.
    s.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'ERR_HTTP2_STREAM_ERROR') linkError = err;
    });
    if (done) return void s.close(constants.NGHTTP2_CANCEL);
    s.end(grpcFrame(request));
    if (paused) s.pause();
    let status: Error | null | undefined;
    s.on('response', (headers: IncomingHttpHeaders & IncomingHttpStatusHeader) => {
      handlers.begun?.();
      if (headers[':status'] !== 200) return finish(grpcError(Status.UNKNOWN, `HTTP status ${headers[':status']} from ${path}`));
      // A trailers-only response (an error before any message) has its status here.
      status = statusOf(headers, path);
    });
    s.on('trailers', (trailers: IncomingHttpHeaders) => {
      const said = statusOf(trailers, path);
      if (said !== undefined) status = said;
    });
    s.on('data', (chunk: Buffer) => {
      if (done) return;
      try {
        handlers.data(chunk);
      } catch (err) {
        finish(err as Error);
      }
    });
    s.on('end', () => {
      if (status !== undefined) finish(status);
    });
    s.on('close', () => {
      // An OK counts once the answer was read to its end (then it was taken there): a stream closed with part of it
      // still unread (a paused reader whose connection was closed) has no whole answer.
      if (status) return finish(status);
      // The connection went away under the call (the bridge on the node failed, the link dropped): that is no
      // answer from the kubelet, and grpc-js calls it UNAVAILABLE too.
      if (linkError || dropped()) {
        return finish(grpcError(Status.UNAVAILABLE, `the connection closed before ${path} had a status${linkError ? `: ${linkError.message}` : ''}`, linkError));
      }
      if (s.rstCode !== constants.NGHTTP2_NO_ERROR) return finish(resetStatus(s.rstCode));
      finish(grpcError(Status.UNKNOWN, `${path} ended without a status`));
    });
  };
  connection
    .request({ ...options.headers, ':method': 'POST', ':path': path, 'content-type': 'application/grpc', te: 'trailers' })
    .then(run, (err: Error) => finish(err));
  return {
    pause: () => {
      paused = true;
      stream?.pause();
    },
    resume: () => {
      paused = false;
      stream?.resume();
    },
    cancel: () => finish(grpcError(Status.CANCELLED, 'Cancelled on client')),
    fail: finish,
  };
}
