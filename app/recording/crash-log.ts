/**
 * The flight recorder's `LOG` line (docs/recording-format.md): the end of the log of a container instance
 * that ended while the node was recorded, kept so that the last lines before a crash outlive the node's
 * garbage collection. The lines are the raw CRI records (`TIME STREAM TAG CONTENT`) as the node's file held
 * them, so a reader prints them exactly as `kubectl logs` would have, with any of its options.
 */
import type { EndedInstance } from './ended-instances';

export interface CrashLogBounds {
  /** CRI records per capture (0: capture nothing). */
  lines: number;
  /** Bytes of records per capture. */
  bytes: number;
  /** Records over the whole recording. */
  totalLines: number;
  /** Bytes of records over the whole recording. */
  totalBytes: number;
}

/** The last 200 lines (at most 64 KiB) of each ended instance, at most 32 MiB in all: a night of crash loops. */
export const DEFAULT_CRASH_LOG_BOUNDS: CrashLogBounds = { lines: 200, bytes: 64 * 1024, totalLines: 500_000, totalBytes: 32 * 1024 * 1024 };

export interface CrashLog extends EndedInstance {
  /** When the capture was written, epoch ms (the recording's clock: after the event that showed the end). */
  time: number;
  uid: string;
  namespace: string;
  name: string;
  /** The raw CRI records; absent when nothing was captured (`missing` says why). */
  records?: Buffer;
  /** CRI records captured. */
  lines: number;
  /** The instance's log held more before the captured lines (the capture's bounds cut it). */
  truncated: boolean;
  /** Why nothing was captured: the file was gone, not readable, or the recording's log budget was used up. */
  missing?: string;
}

/** One compact JSON line; records as text when they are UTF-8 (grep and jq read them), else as base64. */
export function crashLogLine(log: CrashLog): string {
  const { time, records, ...rest } = log;
  const text = records && records.length ? records.toString('utf8') : undefined;
  const body: Record<string, unknown> = { time: new Date(time).toISOString(), type: 'LOG', ...rest };
  if (records && text !== undefined && Buffer.byteLength(text) === records.length && !text.includes('\uFFFD')) body.log = text;
  else if (records && records.length) body.logBase64 = records.toString('base64');
  return `${JSON.stringify(body)}\n`;
}

const STRINGS = ['uid', 'namespace', 'name', 'container', 'containerID'] as const;

/** A LOG line read back (its time already checked by the reader); a string says what is wrong with it. */
export function parseCrashLog(v: Record<string, unknown>, time: number): CrashLog | string {
  for (const k of STRINGS) if (typeof v[k] !== 'string' || v[k] === '') return `a LOG line without ${k}`;
  if (!Number.isSafeInteger(v.instance) || (v.instance as number) < 0) return 'a LOG line whose instance is not a whole number';
  if (v.ended !== 'restarted' && v.ended !== 'ended') return 'a LOG line whose "ended" is neither "restarted" nor "ended"';
  if (v.log !== undefined && typeof v.log !== 'string') return 'a LOG line whose log is not text';
  if (v.logBase64 !== undefined && typeof v.logBase64 !== 'string') return 'a LOG line whose logBase64 is not text';
  const records = typeof v.log === 'string' ? Buffer.from(v.log, 'utf8') : typeof v.logBase64 === 'string' ? Buffer.from(v.logBase64, 'base64') : undefined;
  return {
    time,
    uid: v.uid as string,
    namespace: v.namespace as string,
    name: v.name as string,
    container: v.container as string,
    containerID: v.containerID as string,
    instance: v.instance as number,
    ended: v.ended,
    ...(typeof v.reason === 'string' ? { reason: v.reason } : {}),
    ...(typeof v.exitCode === 'number' ? { exitCode: v.exitCode } : {}),
    ...(typeof v.finishedAt === 'string' ? { finishedAt: v.finishedAt } : {}),
    ...(records ? { records } : {}),
    lines: typeof v.lines === 'number' ? v.lines : 0,
    truncated: v.truncated === true,
    ...(typeof v.missing === 'string' ? { missing: v.missing } : {}),
  };
}
