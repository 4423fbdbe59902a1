import type { Writable } from 'node:stream';

/** What a slow reader may leave unread before `watch` stops, rather than growing memory without bound. */
export const MAX_UNREAD_OUTPUT = 64 * 1024 * 1024;

/**
 * Writes `text` to `out` unless more than `limit` bytes already wait for the reader; returns false (and
 * writes nothing) when the reader has fallen that far behind.
 */
export function writeUnlessBacklogged(out: Writable, text: string, limit = MAX_UNREAD_OUTPUT): boolean {
  if (out.writableLength > limit) return false;
  out.write(text);
  return true;
}
