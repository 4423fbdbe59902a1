import { startCall } from './call';
import type { GrpcConnection } from './connection';
import { grpcError, Status } from './grpc-error';
import { GrpcMessageReader } from './message-reader';

export interface UnaryCallOptions {
  /** gRPC metadata, sent as request headers. */
  headers?: Record<string, string>;
  /** The whole call's deadline: told to the server (grpc-timeout) and kept here (DEADLINE_EXCEEDED). */
  timeoutMs: number;
  /** The largest answer taken. */
  maxBytes: number;
}

/** A unary call: resolves with the answer's one message (its own copy of the bytes), or rejects with the call's failure. */
export function unaryCall(connection: GrpcConnection, path: string, request: Uint8Array, options: UnaryCallOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let answer: Buffer | undefined;
    const reader = new GrpcMessageReader((message) => {
      if (answer) throw grpcError(Status.UNIMPLEMENTED, 'Too many responses received');
      answer = Buffer.from(message);
    }, options.maxBytes);
    const timer = setTimeout(() => call.fail(grpcError(Status.DEADLINE_EXCEEDED, `no answer within ${options.timeoutMs / 1000} s`)), options.timeoutMs);
    const call = startCall(connection, path, request, { headers: { ...options.headers, 'grpc-timeout': `${Math.ceil(options.timeoutMs)}m` } }, {
      data: (chunk) => reader.push(chunk),
      end: (err) => {
        clearTimeout(timer);
        if (err) return reject(err);
        if (!answer || !reader.complete()) return reject(grpcError(Status.UNIMPLEMENTED, 'No message received'));
        resolve(answer);
      },
    });
  });
}
