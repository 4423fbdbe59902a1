/** A LogFileAccess that counts the bytes it hands out, to check that a tail reads only the end of a file. */
import type { LogFileAccess } from '../log-file-access';

export function countingAccess(inner: LogFileAccess): LogFileAccess & { bytesRead: () => number } {
  let bytes = 0;
  return {
    where: inner.where,
    list: (d) => inner.list(d),
    stat: (p) => inner.stat(p),
    async *read(path, offset, length) {
      for await (const b of inner.read(path, offset, length)) {
        bytes += b.length;
        yield b;
      }
    },
    bytesRead: () => bytes,
  };
}
