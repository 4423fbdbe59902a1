import { NodescopeError, type ExitClass } from '../util/nodescope-error';

/**
 * How the log reader reaches files: on this machine, or on a node through commands run over SSH. Only ranged
 * reads exist, so a tail moves the end of a file and never the whole of it.
 */
export interface LogFileStat {
  size: number;
  /** Changes when the path names another file (a rotation renamed it and the runtime made a new one). */
  identity: string;
}

export interface LogFileAccess {
  /** Where the files are, for messages (`this machine`, `node worker-1`). */
  readonly where: string;
  /** The names in a directory; undefined when it does not exist. */
  list(dir: string): Promise<string[] | undefined>;
  /** undefined when the path does not exist. */
  stat(path: string): Promise<LogFileStat | undefined>;
  /** Bytes [offset, offset + length) of the file, streamed. */
  read(path: string, offset: number, length: number): AsyncIterable<Buffer>;
}

/**
 * The files could not be read: not there, not allowed, asked for by a name that is not one (BAD_INPUT), or a
 * command that failed. The message says which and the next step what to do.
 */
export class LogAccessError extends NodescopeError<'NOT_FOUND' | 'PERMISSION' | 'BAD_INPUT' | 'FAILED'> {
  override name = 'LogAccessError';
  declare readonly nextStep: string;
  constructor(message: string, nextStep: string, code: 'NOT_FOUND' | 'PERMISSION' | 'BAD_INPUT' | 'FAILED' = 'FAILED') {
    super(code, message, nextStep);
  }

  /** Not allowed is the connection's setting (sudo, user); a bad name is the command line's; the rest is the node's answer. */
  get exitClass(): ExitClass {
    return this.code === 'PERMISSION' ? 'connection' : this.code === 'BAD_INPUT' ? 'usage' : 'api';
  }
}

/** Reads a whole range into one buffer (a tail's chunk, or a checked piece of the live file). */
export async function readRange(access: LogFileAccess, path: string, offset: number, length: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const b of access.read(path, offset, length)) parts.push(b);
  return Buffer.concat(parts);
}
