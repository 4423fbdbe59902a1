/**
 * A LogFileAccess that counts the bytes it hands out (a tail reads only the end of a file) and the commands it
 * runs (over SSH, each stat and each read is one command on the node).
 */
import type { LogFileAccess } from '../log-file-access';

export function countingAccess(inner: LogFileAccess): LogFileAccess & { bytesRead: () => number; commands: () => { stats: number; reads: number } } {
  let bytes = 0;
  let stats = 0;
  let reads = 0;
  return {
    where: inner.where,
    list: (d) => inner.list(d),
    stat: (p) => {
      stats++;
      return inner.stat(p);
    },
    async *read(path, offset, length) {
      reads++;
      for await (const b of inner.read(path, offset, length)) {
        bytes += b.length;
        yield b;
      }
    },
    bytesRead: () => bytes,
    commands: () => ({ stats, reads }),
  };
}
