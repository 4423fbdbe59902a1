/**
 * Where `--tail N` starts: the kubelet's findTailLineStartIndex, read backwards from the end so that only the
 * last lines cross the disk or the link. The start is just after the (N+1)-th last `\n`, so exactly N `\n`s
 * follow it (an unterminated last line rides along uncounted). Chunks grow (64 KiB, doubling to 8 MiB) so a
 * node costs few round trips and at most about twice the bytes needed. The bytes from the start to the end
 * were read on the way: they are handed back (up to a bound) so the tail is not read a second time.
 */
import { readRange, type LogFileAccess } from './log-file-access';

const FIRST_CHUNK = 64 * 1024;
const MAX_CHUNK = 8 * 1024 * 1024;

export interface TailStart {
  /** The byte offset to read from. */
  start: number;
  /** lines + 1 when the bound was found; otherwise every `\n` in the file (all of it is in the tail). */
  newlines: number;
  /** The bytes [start, size), when they were no more than KEEP_BYTES (a node then needs no second read). */
  bytes?: Buffer;
  /** With `bytes`, the raw line that ends at `start` (checkBytes): a follower checks it is still there. */
  before?: Buffer;
}

/**
 * The most a follower reads again to check that the bytes before its offset are still those it read
 * (container-logs.ts): the raw line they end, whose timestamp makes it one of a kind, or this much of its end.
 */
const CHECK_MAX = 64 * 1024;

/** The check bytes after `more` was read following `held` (the check bytes so far): the raw line holding the last byte. */
export function checkBytes(held: Buffer, more: Buffer): Buffer {
  if (!more.length) return held;
  const nl = more.length >= 2 ? more.lastIndexOf(0x0a, more.length - 2) : -1;
  // Without a newline before its last byte, `more` starts a line of its own after a whole one, or goes on with held's.
  const line = nl >= 0 ? more.subarray(nl + 1) : !held.length || held[held.length - 1] === 0x0a ? more : Buffer.concat([held, more]);
  return Buffer.from(line.subarray(-CHECK_MAX));
}

/** The most of the tail's bytes held to hand back: beyond it, the tail is read again as it streams. */
const KEEP_BYTES = 16 * 1024 * 1024;

export async function findTailStart(access: LogFileAccess, path: string, size: number, lines: number, firstChunk = FIRST_CHUNK): Promise<TailStart> {
  if (lines < 0) return { start: 0, newlines: 0 };
  let end = size;
  let count = 0;
  let chunk = firstChunk;
  /** The chunks read, newest first, while they fit KEEP_BYTES; undefined once they do not. */
  let kept: Buffer[] | undefined = [];
  let keptBytes = 0;
  const withBytes = (t: TailStart, from: number): TailStart => {
    if (!kept) return t;
    const all = Buffer.concat(kept.reverse());
    return { ...t, bytes: all.subarray(from), before: checkBytes(Buffer.alloc(0), all.subarray(0, from)) };
  };
  while (end > 0) {
    const start = Math.max(0, end - chunk);
    const buf = await readRange(access, path, start, end - start);
    keptBytes += buf.length;
    if (kept && keptBytes <= KEEP_BYTES) kept.push(buf);
    else kept = undefined;
    // Walk this chunk backwards: the (lines+1)-th newline from the end bounds the start.
    for (let i = buf.length - 1; i >= 0; i--) {
      if (buf[i] !== 0x0a) continue;
      if (++count > lines) return withBytes({ start: start + i + 1, newlines: count }, i + 1);
    }
    end = start;
    chunk = Math.min(chunk * 2, MAX_CHUNK);
  }
  return withBytes({ start: 0, newlines: count }, 0);
}
