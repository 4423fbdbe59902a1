import type { Duplex } from 'node:stream';
import { SshError } from './ssh-errors';

/**
 * The failure behind a stream the layer above only sees as closed (a gRPC connection gone, an HTTP
 * socket hang-up): open errors, errors on an open stream, and what a bridge command printed. Cleared by
 * the next stream that carries data. Shared by the UNIX socket bridge and the node TCP channel.
 */
export interface StreamFailureLog {
  /** Remembers `err` (and reports it) and returns it, for `throw log.record(...)`. */
  record(err: SshError): SshError;
  lastError(): SshError | null;
  /** Runs `open`, recording its failure, or the stream's later errors; `where` names the far end. */
  open(open: () => Promise<Duplex>, where: string): Promise<Duplex>;
}

export function streamFailureLog(onFailure?: (err: SshError) => void): StreamFailureLog {
  let last: SshError | null = null;
  const record = (err: SshError) => {
    last = err;
    onFailure?.(err);
    return err;
  };
  return {
    record,
    lastError: () => last,
    open: (open, where) =>
      open().then(
        (stream) => {
          // Old failures no longer explain anything once a stream carries data. Not at open: a bridge command
          // through OpenSSH opens at once and fails a moment later, and meanwhile its failure is the one to show.
          stream.once('data', () => (last = null));
          // ssh2's own error (e.g. the connection reset mid-stream) is what the layer above will hide.
          stream.on('error', (err: Error) => {
            if (!(err instanceof SshError)) record(new SshError('CONNECTION_LOST', `Stream to ${where} failed: ${err.message}`, 'It will be re-opened on the next request.', err));
          });
          return stream;
        },
        (err: unknown) => {
          throw record(err instanceof SshError ? err : new SshError('BRIDGE_FAILED', String((err as Error)?.message ?? err), 'Retry.', err));
        },
      ),
  };
}
