import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Writes `path` so readers see the old file or the whole new one, never a half-written export:
 * a temporary file in the same directory (same filesystem), flushed to disk, then renamed over.
 */
export async function writeFileAtomic(path: string, data: string, mode = 0o644): Promise<number> {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const bytes = Buffer.from(data, 'utf8');
  try {
    const handle = await open(temp, 'wx', mode);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
  return bytes.length;
}

/** A temporary file beside `path` that becomes `path` whole on commit, or disappears on abort. */
function openAtomic(path: string, mode: number) {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(temp, 'wx', mode);
  let bytes = 0;
  let open = true;
  const close = () => {
    if (open) closeSync(fd);
    open = false;
  };
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
      renameSync(temp, path);
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
export function writeFileAtomicFromChunks<T>(path: string, produce: (write: (chunk: Uint8Array) => void) => T, mode = 0o644): { result: T; bytes: number } {
  const file = openAtomic(path, mode);
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
export async function writeFileAtomicFromChunksAsync<T>(path: string, produce: (write: (chunk: Uint8Array) => void) => Promise<T>, mode = 0o644): Promise<{ result: T; bytes: number }> {
  const file = openAtomic(path, mode);
  try {
    const result = await produce((chunk) => file.write(chunk));
    file.commit();
    return { result, bytes: file.bytes };
  } catch (err) {
    file.abort();
    throw err;
  }
}
