import { startCall, type GrpcCall } from './call';
import type { GrpcConnection } from './connection';
import { grpcError, Status } from './grpc-error';
import { GrpcMessageReader } from './message-reader';

export interface ServerStreamHandlers {
  /** One message, as a view into the bytes it came in (message-reader.ts): copy what outlives the stream, or keep it whole. */
  message(message: Buffer): void;
  /** Called once: null when the server ended the stream with OK, else the failure (cancel() included). */
  end(err: Error | null): void;
}

/** A server-streaming call, unbounded in time (a watch): every message handed on as soon as it is whole. */
export function serverStream(
  connection: GrpcConnection,
  path: string,
  request: Uint8Array,
  options: { headers?: Record<string, string>; maxBytes: number },
  handlers: ServerStreamHandlers,
): GrpcCall {
  const reader = new GrpcMessageReader(handlers.message, options.maxBytes);
  return startCall(connection, path, request, options.headers ? { headers: options.headers } : {}, {
    data: (chunk) => reader.push(chunk),
    end: (err) => handlers.end(err ?? (reader.complete() ? null : grpcError(Status.INTERNAL, `${path} ended in the middle of a message`))),
  });
}
