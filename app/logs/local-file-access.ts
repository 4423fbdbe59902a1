/** Log files on this machine: the simulator's `--log-dir`, or Nodescope run on the node itself. */
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { LogAccessError, type LogFileAccess } from './log-file-access';

function accessError(err: unknown, path: string): never {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') {
    throw new LogAccessError(`not allowed to read ${path} on this machine`, 'Container logs are root-only (the runtime writes them 0640 or 0600): run as root.', 'PERMISSION');
  }
  throw new LogAccessError(`cannot read ${path}: ${(err as Error).message}`, 'Check the path (--log-dir).');
}

export function localFileAccess(): LogFileAccess {
  return {
    where: 'this machine',
    async list(dir) {
      try {
        return await readdir(dir);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        return accessError(err, dir);
      }
    },
    async stat(path) {
      try {
        const s = await stat(path);
        return { size: s.size, identity: `${s.dev}:${s.ino}` };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        return accessError(err, path);
      }
    },
    async *read(path, offset, length) {
      if (length <= 0) return;
      try {
        yield* createReadStream(path, { start: offset, end: offset + length - 1 }) as AsyncIterable<Buffer>;
      } catch (err) {
        accessError(err, path);
      }
    },
  };
}
