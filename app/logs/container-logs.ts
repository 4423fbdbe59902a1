/**
 * Container logs as a capability a source offers: read one container instance's log the way the kubelet does
 * (kubelet-log-writer.ts), from files reached through a LogFileAccess (this machine, or a node over SSH).
 * The tail is found reading backwards (tail-start.ts); rotated files are read only when asked for, gzip
 * streamed; a follower survives rotation by finishing the renamed file before taking up the new one. Files
 * are read by path, so each read of the live file counts only once its identity and the line before it are
 * found unchanged (a rotation, a truncation or a reused inode between a look and a read).
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { KubeletLogWriter, type WrittenLine } from './kubelet-log-writer';
import { LineSplitter } from './line-splitter';
import { LogAccessError, readRange, type LogFileAccess, type LogFileStat } from './log-file-access';
import type { LogReadOptions } from './log-options';
import { containerLogFiles, type ContainerLogFiles, type PodLogDir } from './pod-log-layout';
import { checkBytes, findTailStart, type TailStart } from './tail-start';

export interface ContainerLogTarget {
  pod: PodLogDir;
  container: string;
  /** The instance before the current one (`kubectl logs -p`). */
  previous?: boolean;
  /** A given instance by its number (`N.log`), whichever is current. */
  instance?: number;
}

/** The capability: what a source that can reach a node's log files offers. */
export interface ContainerLogs {
  read(target: ContainerLogTarget, options: LogReadOptions): AsyncIterable<WrittenLine>;
}

export function containerLogs(access: LogFileAccess): ContainerLogs {
  return {
    async *read(target, options) {
      const files = await containerLogFiles(access, target.pod, target.container, target.previous, target.instance);
      yield* readContainerLogFiles(access, files, options);
    },
  };
}

/** A part of the history to read: a file from a byte offset, or a gzip file from its n-th line. */
type Segment = { path: string; gzip: false; offset: number } | { path: string; gzip: true; skipLines: number };

/** A gzip file's text, streamed; stopping early closes the read (on a node, its channel) too. */
async function* gunzipped(access: LogFileAccess, path: string): AsyncGenerator<Buffer> {
  const gunzip = createGunzip();
  const source = Readable.from((async function* () {
    yield* access.read(path, 0, (await access.stat(path))?.size ?? 0);
  })());
  pipeline(source, gunzip).catch(() => {}); // an error reaches the reader through gunzip itself
  try {
    yield* gunzip as AsyncIterable<Buffer>;
  } catch (err) {
    if (!String((err as NodeJS.ErrnoException).code).startsWith('Z_')) throw err;
    throw new LogAccessError(`the rotated file ${path} on ${access.where} is not whole gzip: ${(err as Error).message}`, 'Leave out --include-rotated, or look at the file on the node (the kubelet may be compressing it right now).');
  } finally {
    gunzip.destroy();
  }
}

async function countNewlines(chunks: AsyncIterable<Buffer>): Promise<number> {
  let n = 0;
  for await (const b of chunks) for (let i = b.indexOf(0x0a); i >= 0; i = b.indexOf(0x0a, i + 1)) n++;
  return n;
}

/** The segments before the live file that a tail of `lines` (undefined = all) reaches into, oldest first. */
async function rotatedSegments(access: LogFileAccess, files: ContainerLogFiles, lines: number | undefined): Promise<Segment[]> {
  const out: Segment[] = [];
  let wanted = lines;
  for (const f of [...files.rotated].reverse()) {
    if (wanted !== undefined && wanted < 0) break;
    if (wanted === undefined) {
      out.unshift(f.gzip ? { path: f.path, gzip: true, skipLines: 0 } : { path: f.path, gzip: false, offset: 0 });
      continue;
    }
    if (f.gzip) {
      const total = await countNewlines(gunzipped(access, f.path));
      out.unshift({ path: f.path, gzip: true, skipLines: Math.max(0, total - wanted) });
      wanted -= total;
    } else {
      const size = (await access.stat(f.path))?.size ?? 0;
      const { start, newlines } = await findTailStart(access, f.path, size, wanted);
      out.unshift({ path: f.path, gzip: false, offset: start });
      wanted -= newlines;
    }
  }
  return out;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done);
  });
}

/**
 * The most of the live file read at once: each read is held whole (readRange) and checked to be of the file read
 * so far before its lines are handed on, as a rotation between a stat and a read would hand over the new file's
 * bytes at the old file's offset.
 */
const CHECKED_CHUNK = 4 << 20;
/** Tail reads that a rotation under them makes start again before the read gives up. */
const TAIL_TRIES = 3;

/** Reads one instance's files through the kubelet's writer. */
export async function* readContainerLogFiles(access: LogFileAccess, files: ContainerLogFiles, options: LogReadOptions): AsyncGenerator<WrittenLine> {
  const writer = new KubeletLogWriter(options);
  const tail = options.tailLines !== undefined && options.tailLines >= 0 ? options.tailLines : undefined;
  let stat: LogFileStat | undefined;
  let live: TailStart = { start: 0, newlines: 0 };
  for (let tries = 1; ; tries++) {
    stat = await access.stat(files.current);
    if (!stat) throw new LogAccessError(`${files.current} is gone from ${access.where}`, 'The container was removed, or its log is being rotated: try again.', 'NOT_FOUND');
    if (tail === undefined) break;
    let failed: unknown;
    try {
      live = await findTailStart(access, files.current, stat.size, tail);
    } catch (err) {
      failed = err;
    }
    // Its chunks were read by path: they are all of one file only if the path still names it (a read that
    // failed meanwhile found it renamed, its new file not made yet).
    if ((await access.stat(files.current))?.identity === stat.identity) {
      if (failed) throw failed;
      break;
    }
    if (tries === TAIL_TRIES) throw new LogAccessError(`${files.current} on ${access.where} was rotated each time its tail was read`, 'Try again.');
  }
  // The live file holds the whole tail unless it has no more than `tail` newlines.
  const before = options.includeRotated && (tail === undefined || live.newlines <= tail) ? await rotatedSegments(access, files, tail === undefined ? undefined : tail - live.newlines) : [];

  const put = function* (lines: Iterable<Buffer>): Generator<WrittenLine> {
    for (const l of lines) {
      if (writer.done) return;
      const w = writer.write(l);
      if (w) yield w;
    }
  };
  for (const seg of before) {
    const split = new LineSplitter();
    let skip = seg.gzip ? seg.skipLines : 0;
    const chunks = seg.gzip ? gunzipped(access, seg.path) : access.read(seg.path, seg.offset, ((await access.stat(seg.path))?.size ?? 0) - seg.offset);
    for await (const chunk of chunks) {
      for (const l of split.push(chunk)) {
        if (skip > 0) {
          skip--;
          continue;
        }
        yield* put([l]);
      }
      if (writer.done) return;
    }
    const rest = split.takeRest();
    if (rest.length) yield* put([rest]);
  }

  const split = new LineSplitter();
  let offset = live.start;
  let identity = stat.identity;
  /**
   * The last raw line read of the live file, up to `offset`: still there at each read unless the file was
   * rewritten (or is another file that took the removed one's inode, which a follower far behind can meet).
   */
  let seen = live.before ?? Buffer.alloc(0);
  const remember = (b: Buffer) => (seen = checkBytes(seen, b));
  /** From the beginning of the live file (a new one, or the same one truncated). */
  const fromStart = () => {
    split.takeRest();
    offset = 0;
    seen = Buffer.alloc(0);
  };
  /** A renamed file's rest: its path no longer changes, so it is streamed. */
  const readTo = async function* (path: string, end: number): AsyncGenerator<WrittenLine> {
    for await (const chunk of access.read(path, offset, end - offset)) {
      offset += chunk.length;
      yield* put(split.push(chunk));
      if (writer.done) return;
    }
  };
  /**
   * The live file up to `end`, chunk by checked chunk: 'moved' once its path names another file (or none),
   * 'rewritten' when the line before `offset` is no longer the one read (truncated and written again between
   * two looks, CRI-O's size cap: the offset would land mid-line in other lines).
   */
  const readLive = async function* (end: number): AsyncGenerator<WrittenLine, 'read' | 'moved' | 'rewritten'> {
    while (offset < end && !writer.done && !options.signal?.aborted) {
      const back = seen.length;
      let chunk: Buffer;
      try {
        chunk = await readRange(access, files.current, offset - back, Math.min(end - offset, CHECKED_CHUNK) + back);
      } catch (err) {
        // Renamed under the read, its new file not made yet: the rotation, not a failure.
        if ((await access.stat(files.current))?.identity !== identity) return 'moved';
        throw err;
      }
      // The line before `offset` read again unchanged: the bytes are the same file's (its timestamp makes the line
      // one of a kind), no stat needed. With none to check, or another one, the path's file tells moved from rewritten.
      if (!(back > 0 && chunk.subarray(0, back).equals(seen))) {
        if ((await access.stat(files.current))?.identity !== identity) return 'moved';
        if (!chunk.subarray(0, back).equals(seen)) return 'rewritten';
      }
      chunk = chunk.subarray(back);
      offset += chunk.length;
      if (chunk.length) remember(chunk);
      yield* put(split.push(chunk));
      // Shorter than asked: truncated meanwhile, which the next look sees.
      if (!chunk.length) break;
    }
    return 'read';
  };
  /** Rotated (renamed, a new file made): the renamed file's rest, which the kubelet's reader skips. */
  const finishRenamed = async function* (): AsyncGenerator<WrittenLine> {
    const renamed = await findByIdentity(access, files, identity);
    if (!renamed || renamed.size <= offset) return;
    try {
      yield* readTo(renamed.path, renamed.size);
    } catch (err) {
      // Compressed or removed by a later rotation while it was read (a follower that fell behind): the rest
      // of it is gone, as for the kubelet's own reader, and the follow goes on with the new file.
      if (await access.stat(renamed.path)) throw err;
    }
  };
  let moved = false;
  if (live.bytes && live.start + live.bytes.length === stat.size) {
    // The tail was read while finding where it starts: not read a second time.
    offset = stat.size;
    remember(live.bytes);
    yield* put(split.push(live.bytes));
  } else {
    // Rewritten under a read that does not follow: what was read is all there is of it.
    moved = (yield* readLive(stat.size)) === 'moved';
  }
  if (!options.follow) {
    if (moved) yield* finishRenamed();
    const rest = split.takeRest();
    if (rest.length) yield* put([rest]);
    return;
  }
  const dir = files.current.slice(0, files.current.lastIndexOf('/'));
  while (!writer.done && !options.signal?.aborted) {
    if (!moved) {
      await sleep(options.pollIntervalMs ?? 1000, options.signal);
      if (options.signal?.aborted) return;
    }
    const now = await access.stat(files.current);
    if (now && now.identity === identity && now.size >= offset) {
      moved = false;
      if (now.size === offset) {
        if (await restarted(access, files)) return;
        continue;
      }
      const r = yield* readLive(now.size);
      moved = r === 'moved';
      if (r === 'rewritten') fromStart();
      continue;
    }
    moved = false;
    // Rotated (renamed, a new file made) or truncated (CRI-O's size cap): first finish the renamed file, then
    // start the new file from its beginning.
    yield* finishRenamed();
    if (!now) {
      // No live file and none renamed: between a rotation's rename and its new file, or gone for good (the pod
      // deleted, the container's logs garbage-collected), which a follower must not wait on for ever.
      const names = await access.list(dir);
      if (!names) {
        throw new LogAccessError(`the log folder ${dir} is gone from ${access.where}: the pod was deleted or its logs garbage-collected`, 'Nothing more will be written there; read the container of a pod that still runs.', 'NOT_FOUND');
      }
      // Removed beside a newer instance's file (garbage-collected after a restart): this instance has ended.
      if (newerInstance(names, files)) return;
      continue;
    }
    fromStart();
    identity = now.identity;
  }
}

/** A newer instance's file means this one ended: a follower stops, as `kubectl logs -f` does when the container exits. */
async function restarted(access: LogFileAccess, files: ContainerLogFiles): Promise<boolean> {
  const dir = files.current.slice(0, files.current.lastIndexOf('/'));
  return newerInstance((await access.list(dir)) ?? [], files);
}

const newerInstance = (names: string[], files: ContainerLogFiles) => names.some((n) => /^\d+\.log$/.test(n) && Number(n.slice(0, -4)) > files.restartCount);

async function findByIdentity(access: LogFileAccess, files: ContainerLogFiles, identity: string): Promise<{ path: string; size: number } | undefined> {
  const dir = files.current.slice(0, files.current.lastIndexOf('/'));
  const prefix = `${files.restartCount}.log.`;
  const names = ((await access.list(dir)) ?? []).filter((n) => n.startsWith(prefix) && !n.endsWith('.gz') && !n.endsWith('.tmp')).sort().reverse();
  for (const n of names) {
    const s = await access.stat(`${dir}/${n}`);
    if (s?.identity === identity) return { path: `${dir}/${n}`, size: s.size };
  }
  return undefined;
}
