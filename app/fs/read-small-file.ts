import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import { NodescopeError } from '../util/nodescope-error';

/**
 * Reads a small file the user points Nodescope at (an identity file, known_hosts, an ssh config,
 * nodes.json) without trusting it to be one: only a regular file is read, and only up to a limit.
 * A FIFO would block the open (and the app's start, for nodes.json) until some writer came, and a
 * device like /dev/zero never ends; both are refused with a message that says what the path is.
 * /dev/null reads as empty, as ssh users expect (`UserKnownHostsFile /dev/null`).
 * Errors from opening (ENOENT, EACCES...) come through unchanged, so callers keep their own wording.
 */

export interface SmallFileLimit {
  /** What the file is, for messages: "identity file", "known_hosts file". */
  what: string;
  maxBytes: number;
}

/** Thrown for a path that is not a regular file, or one larger than the limit: the user names another (usage). */
export class UnsuitableFileError extends NodescopeError<'NOT_REGULAR' | 'TOO_LARGE'> {
  override readonly name = 'UnsuitableFileError';
  readonly exitClass = 'usage';
  constructor(code: 'NOT_REGULAR' | 'TOO_LARGE', message: string) {
    // The caller knows what the file is for, so it gives the next step when it wraps this.
    super(code, message, undefined);
  }
}

// O_NONBLOCK makes opening a FIFO return at once instead of waiting for a writer; it changes
// nothing for regular files. Windows has neither flag.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  if (stats.isDirectory()) return 'a folder';
  return 'not a regular file';
}

function sizeText(bytes: number): string {
  return bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MiB` : bytes >= 1024 ? `${Math.round(bytes / 1024)} KiB` : `${bytes} bytes`;
}

let devNull: Stats | null | undefined;
function isDevNull(stats: Stats): boolean {
  if (devNull === undefined) {
    try {
      devNull = statSync('/dev/null');
    } catch {
      devNull = null;
    }
  }
  return stats.isCharacterDevice() && devNull !== null && stats.rdev === devNull.rdev;
}

/** Whether the file may be read; throws for one that may not. */
function check(path: string, stats: Stats, limit: SmallFileLimit): boolean {
  if (isDevNull(stats)) return false;
  if (!stats.isFile()) {
    throw new UnsuitableFileError(
      'NOT_REGULAR',
      `${path} is ${kindOf(stats)}, not a regular file: Nodescope reads ${limit.what}s only from regular files. Give the path of the file itself.`,
    );
  }
  if (stats.size > limit.maxBytes) throw tooLarge(path, limit, sizeText(stats.size));
  return true;
}

function tooLarge(path: string, limit: SmallFileLimit, size: string): UnsuitableFileError {
  return new UnsuitableFileError(
    'TOO_LARGE',
    `${path} is ${size}: Nodescope reads ${limit.what}s only up to ${sizeText(limit.maxBytes)}. Check that this is the right file.`,
  );
}

/** Collects what is read: fstat's size is only a first guess (the file may grow), the limit is what counts. */
class Collected {
  buffer: Buffer;
  length = 0;
  constructor(
    private readonly path: string,
    private readonly limit: SmallFileLimit,
    size: number,
  ) {
    // One byte past the expected end tells a file that grew from one that did not.
    this.buffer = Buffer.alloc(Math.min(size, limit.maxBytes) + 1);
  }

  get free(): number {
    return this.buffer.length - this.length;
  }

  /** Counts a read of n bytes; false once the file has ended. */
  add(n: number): boolean {
    if (n === 0) return false;
    this.length += n;
    if (this.length > this.limit.maxBytes) throw tooLarge(this.path, this.limit, `more than ${sizeText(this.limit.maxBytes)}`);
    if (this.free === 0) {
      const grown = Buffer.alloc(Math.min(this.buffer.length * 2, this.limit.maxBytes + 1));
      this.buffer.copy(grown);
      this.buffer = grown;
    }
    return true;
  }

  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

export async function readSmallFile(path: string, limit: SmallFileLimit): Promise<Buffer> {
  const handle = await open(path, OPEN_FLAGS);
  try {
    const stats = await handle.stat();
    if (!check(path, stats, limit)) return Buffer.alloc(0);
    const c = new Collected(path, limit, stats.size);
    while (c.add((await handle.read(c.buffer, c.length, c.free, c.length)).bytesRead));
    return c.bytes();
  } finally {
    await handle.close();
  }
}

/** The same, synchronously: the ssh config reader, and the CLI resolving `--mask @NAME`. */
export function readSmallFileSync(path: string, limit: SmallFileLimit): Buffer {
  const fd = openSync(path, OPEN_FLAGS);
  try {
    const stats = fstatSync(fd);
    if (!check(path, stats, limit)) return Buffer.alloc(0);
    const c = new Collected(path, limit, stats.size);
    while (c.add(readSync(fd, c.buffer, c.length, c.free, c.length)));
    return c.bytes();
  } finally {
    closeSync(fd);
  }
}
