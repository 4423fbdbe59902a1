import { randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, fchownSync, fstatSync, fsyncSync, linkSync, lstatSync, openSync, realpathSync, renameSync, rmSync, statSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { NodescopeError } from '../util/nodescope-error';

export interface AtomicWriteOptions {
  /** When the file exists already: 'replace' it (default) or 'refuse' (the error's code is EEXIST). */
  existing?: 'replace' | 'refuse';
}

/** A target Nodescope will not write over; `code` is read by whyCannotWrite. The path is the user's to change (usage). */
export class WriteRefusedError extends NodescopeError<'EEXIST' | 'EISDIR' | 'not-a-file' | 'dangling-link'> {
  readonly exitClass = 'usage';
  constructor(code: 'EEXIST' | 'EISDIR' | 'not-a-file' | 'dangling-link', path: string) {
    super(code, `refused to write ${path} (${code})`, undefined);
    this.name = 'WriteRefusedError';
  }
}

interface Target {
  /** The file actually replaced: a symlink is followed, so the link stays and its file is updated. */
  path: string;
  /** What the new file gets: the permissions (and owner) of the file it replaces, or private ones. */
  mode: number;
  previous: Stats | null;
}

function resolveTarget(path: string, options: AtomicWriteOptions): Target {
  let real: string;
  try {
    real = realpathSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    // A link to a file that is not there: following it would create a file somewhere the user may not expect.
    if (lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink()) throw new WriteRefusedError('dangling-link', path);
    // A new file is private to the user: exports can carry secrets from pods' env values.
    return { path, mode: 0o600, previous: null };
  }
  const previous = statSync(real);
  if (!previous.isFile()) throw new WriteRefusedError(previous.isDirectory() ? 'EISDIR' : 'not-a-file', path);
  if (options.existing === 'refuse') throw new WriteRefusedError('EEXIST', path);
  return { path: real, mode: previous.mode & 0o7777, previous };
}

function tempPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
}

/** Sets the new file's exact permissions (the umask does not apply) and, when replacing, its owner and group. */
function matchPermissions(fd: number, target: Target): void {
  fchmodSync(fd, target.mode);
  const prev = target.previous;
  if (!prev) return;
  const made = fstatSync(fd);
  if (made.uid !== prev.uid || made.gid !== prev.gid) fchownSync(fd, prev.uid, prev.gid);
}

/** Puts the finished temp file in place: rename over the target, or a hard link that fails if a file appeared meanwhile. */
function placeFile(temp: string, target: Target, options: AtomicWriteOptions): void {
  if (options.existing !== 'refuse') {
    renameSync(temp, target.path);
    return;
  }
  try {
    linkSync(temp, target.path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new WriteRefusedError('EEXIST', target.path);
    // File systems without hard links: rename, having checked the name is still free.
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV') throw err;
    if (lstatSync(target.path, { throwIfNoEntry: false })) throw new WriteRefusedError('EEXIST', target.path);
    renameSync(temp, target.path);
    return;
  }
  unlinkSync(temp);
}

/**
 * Writes `path` so readers see the old file or the whole new one, never a half-written export:
 * a temporary file in the same directory (same filesystem), flushed to disk, then renamed over.
 * The new file keeps the permissions and owner of the one it replaces (exports may carry secrets),
 * a symlink is written through, and anything but a regular file is refused.
 */
export async function writeFileAtomic(path: string, data: string, options: AtomicWriteOptions = {}): Promise<number> {
  const bytes = Buffer.from(data, 'utf8');
  writeFileAtomicFromChunks(path, (write) => write(bytes), options);
  return bytes.length;
}

/** A temporary file beside the target that becomes it whole on commit, or disappears on abort. */
function openAtomic(path: string, options: AtomicWriteOptions) {
  const target = resolveTarget(path, options);
  const temp = tempPathFor(target.path);
  const fd = openSync(temp, 'wx', 0o600);
  let bytes = 0;
  let open = true;
  const close = () => {
    if (open) closeSync(fd);
    open = false;
  };
  try {
    matchPermissions(fd, target);
  } catch (err) {
    close();
    rmSync(temp, { force: true });
    throw err;
  }
  return {
    get bytes() {
      return bytes;
    },
    write(chunk: Uint8Array): void {
      for (let off = 0; off < chunk.length; ) off += writeSync(fd, chunk, off);
      bytes += chunk.length;
    },
    commit(): void {
      try {
        fsyncSync(fd);
      } finally {
        close();
      }
      placeFile(temp, target, options);
    },
    abort(): void {
      close();
      rmSync(temp, { force: true });
    },
  };
}

/**
 * The same guarantee for output produced in chunks (an export of thousands of pods): each chunk is written
 * as it comes, so memory stays bounded, and the file appears whole or not at all. `produce` gets a write
 * function that copies the chunk out before returning (chunks may be reused by their producer).
 */
export function writeFileAtomicFromChunks<T>(path: string, produce: (write: (chunk: Uint8Array) => void) => T, options: AtomicWriteOptions = {}): { result: T; bytes: number } {
  const file = openAtomic(path, options);
  try {
    const result = produce((chunk) => file.write(chunk));
    file.commit();
    return { result, bytes: file.bytes };
  } catch (err) {
    file.abort();
    throw err;
  }
}

/** writeFileAtomicFromChunks for a producer that takes its time (pods printed as they arrive from the node). */
export async function writeFileAtomicFromChunksAsync<T>(path: string, produce: (write: (chunk: Uint8Array) => void) => Promise<T>, options: AtomicWriteOptions = {}): Promise<{ result: T; bytes: number }> {
  const file = openAtomic(path, options);
  try {
    const result = await produce((chunk) => file.write(chunk));
    file.commit();
    return { result, bytes: file.bytes };
  } catch (err) {
    file.abort();
    throw err;
  }
}
