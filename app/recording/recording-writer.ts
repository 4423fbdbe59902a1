/**
 * Writes a recording (recording-format.ts): the header and the full pod set first, flushed to disk, then one
 * line per event, appended as it arrives.
 * - Never writes over a file: the recording is created new, private to the user (pods carry secrets in env).
 * - A recording whose initial set the disk refused is removed: without it the file cannot be opened.
 * - Each event is one write of one whole line, so a crash of the process loses at most the event being written.
 * - Data reaches the disk by group commit: an fdatasync starts after a write whenever none is running, so a
 *   power loss loses at most the events of one sync (milliseconds), without one sync per event.
 * - A failed write (full disk) is cut back to the last whole line before the error is thrown, so what was
 *   recorded before stays readable.
 */
import { closeSync, fdatasync, fsyncSync, ftruncateSync, openSync, rmSync, writeSync } from 'node:fs';
import { whyCannotWrite } from '../fs/write-error';
import type { DecodedPod } from '../pod/pod-tree';
import type { PodFileProvenance, RecordingEvent } from '../snapshot/pod-file';
import { crashLogLine, type CrashLog } from './crash-log';
import { monotonicWallClock } from './recording-clock';
import { endLine, headerLine, podLine, syncedLine } from './recording-format';
import { NodescopeError } from '../util/nodescope-error';

export class RecordingWriteError extends NodescopeError<'RECORDING_WRITE'> {
  declare readonly nextStep: string;
  readonly exitClass = 'io';
  constructor(
    readonly path: string,
    readonly why: string,
    nextStep: string,
    options?: { cause?: unknown },
  ) {
    super('RECORDING_WRITE', `cannot write the recording ${path}: ${why}. ${nextStep}`, nextStep, options);
    this.name = 'RecordingWriteError';
  }
}

export interface RecordingWriter {
  readonly path: string;
  /** When the initial pod set was written, epoch ms. */
  readonly start: number;
  /** The recording's clock (recording-clock.ts), epoch ms: stamp events with it. */
  now(): number;
  /** Events appended so far. */
  readonly events: number;
  /** Bytes in the file. */
  readonly bytes: number;
  /** Appends one event, synchronously; throws RecordingWriteError when the disk refuses (the file keeps every whole line before). */
  append(event: RecordingEvent): void;
  /** Appends the end of an ended instance's log (crash-log.ts), stamped now; throws as append does. */
  appendCrashLog(log: Omit<CrashLog, 'time'>): void;
  /** Writes the END line, flushes and closes. Safe to call more than once. */
  close(): Promise<void>;
}

const BATCH = 1 << 20;

/** `clock`: the one the caller stamps events with (made before the recording when events come early). */
export async function startRecording(path: string, init: { provenance: PodFileProvenance; pods: DecodedPod[]; start?: number; clock?: () => number }): Promise<RecordingWriter> {
  const now = init.clock ?? monotonicWallClock();
  const start = init.start ?? now();
  let fd: number;
  try {
    // New, never over a file (or a link, pipe or device), and private: pods can carry secrets from env values.
    fd = openSync(path, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new RecordingWriteError(path, 'the file already exists', 'Nodescope never writes over a file: give --file a new name.', { cause: err });
    }
    throw new RecordingWriteError(path, whyCannotWrite(err) ?? (err as Error).message, 'Choose a folder you can write to.', { cause: err });
  }
  let bytes = 0;
  let events = 0;
  let lastTime = start;
  let failed: RecordingWriteError | undefined;
  let closed = false;
  let syncing: Promise<void> | undefined;
  let dirty = false;

  const fail = (err: unknown): never => {
    // Cut a partly written line off, so the file ends with a whole one.
    try {
      ftruncateSync(fd, bytes);
    } catch {
      // The reader drops a torn last line anyway.
    }
    failed = new RecordingWriteError(path, whyCannotWrite(err) ?? (err as Error).message, `Everything up to the last whole event (${events} events) is kept; free space or choose another disk and record again.`, { cause: err });
    throw failed;
  };
  const write = (text: string) => {
    const buf = Buffer.from(text);
    try {
      for (let off = 0; off < buf.length; ) off += writeSync(fd, buf, off);
    } catch (err) {
      fail(err);
    }
    bytes += buf.length;
  };
  const syncSoon = () => {
    dirty = true;
    if (syncing) return;
    const run = (): Promise<void> =>
      new Promise<void>((resolve) => {
        dirty = false;
        fdatasync(fd, () => resolve());
      }).then(() => (dirty && !closed ? run() : undefined));
    syncing = run().finally(() => (syncing = undefined));
  };

  try {
    write(headerLine({ start, ...init.provenance }));
    let batch = '';
    for (const p of init.pods) {
      batch += podLine(start, 'INITIAL', p.pod);
      if (batch.length >= BATCH) {
        write(batch);
        batch = '';
      }
    }
    write(batch + syncedLine(start, init.pods.length));
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    // Without its whole initial set the file cannot be opened: remove it rather than leave a stub that says nothing.
    rmSync(path, { force: true });
    const cause = err instanceof RecordingWriteError ? err.cause : err;
    throw new RecordingWriteError(path, whyCannotWrite(cause) ?? (cause as Error).message, 'Nothing was recorded and the file is removed; free space or choose another disk and record again.', { cause });
  }

  return {
    path,
    start,
    now,
    get events() {
      return events;
    },
    get bytes() {
      return bytes;
    },
    append(event) {
      if (failed) throw failed;
      if (closed) throw new Error(`the recording ${path} is closed`);
      // Times never go back in a recording (the reader relies on it); a clock stepped back repeats the last time.
      lastTime = Math.max(lastTime, event.time);
      write(podLine(lastTime, event.type, event.pod.pod));
      events++;
      syncSoon();
    },
    appendCrashLog(log) {
      if (failed) throw failed;
      if (closed) throw new Error(`the recording ${path} is closed`);
      lastTime = Math.max(lastTime, now());
      write(crashLogLine({ ...log, time: lastTime }));
      syncSoon();
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        if (!failed) write(endLine(Math.max(lastTime, now())));
      } catch {
        // `failed` says why; the recording without END still opens, marked incomplete.
      }
      await syncing;
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    },
  };
}
