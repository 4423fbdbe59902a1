/**
 * A failed call as grpc-js shapes it (an Error with the status `code` and its `details`), which
 * toKubeletError (app/kubelet/kubelet-error.ts) classifies; and the status of a stream the server or the
 * link reset without one, read as grpc-js reads it (its subchannel-call.ts), so errors keep their codes.
 */
// The status codes alone: the package's index would load all of grpc-js, which this client never needs.
import { Status } from '@grpc/grpc-js/build/src/constants.js';
import { constants } from 'node:http2';

export { Status };

export interface GrpcStatusError extends Error {
  code: Status;
  details: string;
}

export const grpcError = (code: Status, details: string, cause?: unknown): GrpcStatusError =>
  Object.assign(new Error(details, cause === undefined ? {} : { cause }), { code, details });

/** The status of a stream the server reset (RST_STREAM `rstCode`) before any status came. */
export function resetStatus(rstCode: number): GrpcStatusError {
  switch (rstCode) {
    case constants.NGHTTP2_REFUSED_STREAM:
      return grpcError(Status.UNAVAILABLE, 'Stream refused by server');
    case constants.NGHTTP2_CANCEL:
      return grpcError(Status.CANCELLED, 'Call cancelled');
    case constants.NGHTTP2_ENHANCE_YOUR_CALM:
      return grpcError(Status.RESOURCE_EXHAUSTED, 'Bandwidth exhausted or memory limit exceeded');
    case constants.NGHTTP2_INADEQUATE_SECURITY:
      return grpcError(Status.PERMISSION_DENIED, 'Protocol not secure enough');
    default:
      return grpcError(Status.INTERNAL, `Received RST_STREAM with code ${rstCode}`);
  }
}

/** The status in a response's headers or trailers, or undefined when there is none. */
export function statusOf(headers: Record<string, unknown>, path: string): GrpcStatusError | null | undefined {
  const raw = headers['grpc-status'];
  if (raw === undefined) return undefined;
  const code = Number(raw) as Status;
  if (code === Status.OK) return null;
  const message = String(headers['grpc-message'] ?? '');
  let details = message;
  try {
    details = decodeURIComponent(message);
  } catch {
    // A message that is not percent-encoded as it should be is shown as it came.
  }
  return grpcError(code, details || `${path} ended with status ${code} and no message`);
}
