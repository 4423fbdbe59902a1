/**
 * `nodescope record SOURCE --file F`: a flight recorder. Writes the node's full pod set, then every watch event
 * with its arrival time, to a new recording file (docs/recording-format.md) until Ctrl-C or --duration.
 * Re-syncs after a reconnect are recorded as the events that brought the set up to date. When a container
 * instance ends meanwhile (a restart, a failed pod), the end of its log is read from the node's files and
 * recorded too (app/recording/crash-log-capture.ts), so the why outlives the node's garbage collection.
 */
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { startPodWatch, type PodChange } from '../kubelet/pod-watch';
import { applyFieldMask } from '../mask/field-mask';
import type { PodObject } from '../pod/pod-tree';
import { CrashLogCapture, type CrashLogFiles } from '../recording/crash-log-capture';
import { DEFAULT_CRASH_LOG_BOUNDS, type CrashLogBounds } from '../recording/crash-log';
import { monotonicWallClock } from '../recording/recording-clock';
import { startRecording, type RecordingWriter } from '../recording/recording-writer';
import type { RecordingEvent } from '../snapshot/pod-file';
import { reportFailure } from './cli-failure';
import { EXIT } from './exit-codes';
import type { KubeletConnection } from './kubelet-connection';
import { runNodeCommand, type NodeCommandSpec } from './node-command';
import type { NodeCommandOptions } from './node-options';
import { UsageError } from './usage-error';
import { parseDuration } from './pod-source';
import { printError } from './terminal-text';
import { STOP_SIGNALS } from '../process/stop-signals';
import { stateLine } from './watch-command';


const spec: NodeCommandSpec = {
  name: 'record',
  usage:
    'usage: nodescope record SOURCE --file PATH [--duration D] [options]\n\n' +
    "Records SOURCE's pods, then every change as it arrives, to a new file until Ctrl-C or --duration.\n" +
    'Open it with nodescope pods PATH --at TIME, get, export or watch.',
  outputs: ['recording'],
  extra: {
    file: { type: 'string' },
    duration: { type: 'string' },
    'log-dir': { type: 'string' },
    'crash-lines': { type: 'string' },
    'crash-bytes': { type: 'string' },
    'crash-total-lines': { type: 'string' },
    'crash-total-bytes': { type: 'string' },
  },
  extraHelp:
    'record:\n  --file PATH                the recording to create (never an existing file)\n  --duration D               stop after D, e.g. 30s, 10m, 1h30m (default: until Ctrl-C)\n' +
    'when a container restarts or a pod fails, the end of the log of the instance that ended is recorded too\n' +
    '(read it with nodescope logs PATH POD --at TIME [--previous]); over SSH the files are root-only (--sudo):\n' +
    `  --crash-lines N            lines kept per instance (default ${DEFAULT_CRASH_LOG_BOUNDS.lines}; 0: keep no logs)\n` +
    `  --crash-bytes N            bytes kept per instance (default ${DEFAULT_CRASH_LOG_BOUNDS.bytes})\n` +
    `  --crash-total-lines N      lines kept in the whole recording (default ${DEFAULT_CRASH_LOG_BOUNDS.totalLines})\n` +
    `  --crash-total-bytes N      bytes kept in the whole recording (default ${DEFAULT_CRASH_LOG_BOUNDS.totalBytes})\n` +
    '  --log-dir DIR              the kubelet\'s podLogsDir (default /var/log/pods)',
  check: (opts) => void crashLogBounds(opts.extraValues),
  async run(conn, opts) {
    const { client, socketPath } = conn;
    const file = opts.extraValues.file as string | undefined;
    if (!file) throw new UsageError('give the recording a file: --file PATH');
    if (existsSync(file)) throw new UsageError(`${file} already exists: Nodescope never writes over a file; give --file a new name`);
    const durationText = opts.extraValues.duration as string | undefined;
    const duration = durationText === undefined ? undefined : parseDuration(durationText);
    if (durationText !== undefined && !duration) throw new UsageError(`bad --duration '${durationText}': give a duration such as 30s, 10m or 1h30m`);
    // A recording tells pods apart by uid: a mask must keep it.
    if (opts.mask && !(applyFieldMask({ metadata: { uid: 'u' } }, opts.mask).metadata as PodObject | undefined)?.uid) {
      throw new UsageError('a recording needs each pod\'s metadata.uid: add it to --mask');
    }
    const node = opts.local !== undefined && opts.node === 'local' ? `unix:${socketPath}` : opts.node;

    const files = await crashLogFiles(conn, opts);
    const bounds = crashLogBounds(opts.extraValues);
    return new Promise<number>((resolve) => {
      const clock = monotonicWallClock();
      let writer: RecordingWriter | undefined;
      /** The recording being created (its initial set written); undefined when that failed. */
      let starting: Promise<RecordingWriter | undefined> | undefined;
      let startFailure: number | undefined;
      let stopping = false;
      let timer: NodeJS.Timeout | undefined;
      const stop = (code: number, why?: string, signal?: NodeJS.Signals) => {
        if (stopping) return;
        stopping = true;
        clearTimeout(timer);
        for (const signal of STOP_SIGNALS) process.off(signal, interrupted);
        void (async () => {
          await watch.close();
          await capture?.drain();
          // A recording stopped while its initial set was being written holds just that set, and says so.
          const w = writer ?? (await starting);
          try {
            await w?.close();
          } catch (err) {
            code = reportFailure('record', err);
          }
          if (w) printError(`nodescope: ${why ?? 'stopped'}: recorded ${w.events} events (${w.bytes} bytes) to ${file}`);
          else if (startFailure !== undefined) code = startFailure;
          else if (signal) {
            printError(`nodescope: stopped by ${signal} before the node's pods were listed: nothing was recorded and no file was written`);
            code = 128 + constants.signals[signal];
          }
          resolve(code);
        })();
      };
      const interrupted = (signal: NodeJS.Signals) => stop(EXIT.ok, undefined, signal);
      for (const signal of STOP_SIGNALS) process.on(signal, interrupted);
      /** Events that arrive while the initial set is being written wait here, with their arrival times. */
      let early: RecordingEvent[] = [];
      let capture: CrashLogCapture | undefined;
      const write = (w: RecordingWriter, event: RecordingEvent) => {
        try {
          w.append(event);
          if (event.type === 'DELETED') capture?.forget(String((event.pod.pod.metadata as PodObject | undefined)?.uid));
          else capture?.seen(event.pod.pod);
        } catch (err) {
          stop(reportFailure('record', err), 'stopped on a write error');
        }
      };
      const append = (change: PodChange) => {
        if (stopping) return;
        const event = { time: clock(), type: change.type, pod: change.pod };
        if (writer) write(writer, event);
        else early.push(event);
      };
      const watch = startPodWatch(
        client,
        {
          synced: (pods, changes, resync) => {
            if (resync) {
              changes.forEach(append);
              printError(`nodescope: re-synced: ${changes.length} changes recorded`);
              return;
            }
            starting = startRecording(file, { provenance: { node, origin: 'nodescope record' }, pods, clock }).then(
              (w) => {
                if (stopping) return w;
                writer = w;
                capture = new CrashLogCapture(files, bounds, (log) => w.appendCrashLog(log));
                for (const p of pods) capture.baseline(p.pod);
                for (const e of early) if (!stopping) write(w, e);
                early = [];
                printError(`nodescope: recording ${pods.length} pods of ${node} and every change to ${file}; ${duration ? `stopping after ${durationText}` : 'Ctrl-C stops'}`);
                if (duration) timer = setTimeout(() => stop(EXIT.ok, `--duration ${durationText} reached`), duration);
                return w;
              },
              (err: unknown) => {
                startFailure = reportFailure('record', err);
                stop(startFailure);
                return undefined;
              },
            );
          },
          change: append,
          state: (s) => {
            const line = stateLine(s);
            if (line) printError(`nodescope: ${line}${s.state === 'reconnecting' ? ' (the re-sync is recorded as events)' : ''}`);
            if (s.state === 'error') stop(reportFailure('record', s.cause));
          },
        },
        { masked: opts.mask !== undefined },
      );
    });
  },
};

export const run = (argv: string[]) => runNodeCommand(spec, argv);

function count(v: unknown, flag: string, fallback: number): number {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < 0 || String(v).trim() === '') throw new UsageError(`bad ${flag} '${String(v)}': give a whole number, 0 or more`);
  return n;
}

/** How much of each ended instance's log the recording keeps, and of all of them. */
export function crashLogBounds(v: Record<string, unknown>): CrashLogBounds {
  const d = DEFAULT_CRASH_LOG_BOUNDS;
  return {
    lines: count(v['crash-lines'], '--crash-lines', d.lines),
    bytes: count(v['crash-bytes'], '--crash-bytes', d.bytes),
    totalLines: count(v['crash-total-lines'], '--crash-total-lines', d.totalLines),
    totalBytes: count(v['crash-total-bytes'], '--crash-total-bytes', d.totalBytes),
  };
}

/** The node's log files the way the recording reaches the node: its SSH session, or this machine for a socket here. */
async function crashLogFiles(conn: KubeletConnection, opts: NodeCommandOptions & { extraValues: Record<string, unknown> }): Promise<CrashLogFiles> {
  const [{ checkLogsDir, DEFAULT_POD_LOGS_DIR }, { containerLogs }, { openNodeAccess }] = await Promise.all([import('../logs/pod-log-layout'), import('../logs/container-logs'), import('../source/node-access')]);
  const logsDir = checkLogsDir(String(opts.extraValues['log-dir'] ?? DEFAULT_POD_LOGS_DIR));
  const logs = containerLogs((await openNodeAccess(conn.session, { node: opts.node, sudo: opts.sudo })).files);
  return async () => ({ logs, logsDir });
}
