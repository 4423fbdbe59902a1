import { randomBytes } from 'node:crypto';
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
