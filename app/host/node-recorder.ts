import { ContractError, type NodeInfo } from '../contract';
import type { PodEventType } from '../core/core-types';
import type { DecodedPod, PodObject } from '../pod/pod-tree';
import { decodeStored, isNotHeld, type HeldStored, type StoredPod } from '../pod/stored-pod';
import { KEEP_WHOLE_PODS, ROWS_ONLY_WHY } from '../core/whole-pods';
import { CrashLogCapture } from '../recording/crash-log-capture';
import { DEFAULT_CRASH_LOG_BOUNDS, type CrashLogBounds } from '../recording/crash-log';
import { startRecording, type RecordingWriter } from '../recording/recording-writer';
import { containerLogs } from '../logs/container-logs';
import type { NodeLogFiles } from '../core/node-link';

interface Recording {
  writer: RecordingWriter;
  /** The pods present as recorded, so a relist is written as the changes it brought. */
  present: Set<string>;
  /** Keeps the end of the log of each container instance that ends meanwhile. */
  capture: CrashLogCapture;
}

const uidOf = (pod: DecodedPod) => (pod.pod.metadata as PodObject | undefined)?.uid as string | undefined;

/**
 * The UI's recordings: a live node's watch written to a file (app/recording), starting with its full
 * pod set, and the end of the log of each container instance that ends meanwhile, read through the node's
 * link. A write that fails (full disk) stops that recording and says so; what was written stays.
 */
export class NodeRecorder {
  private readonly recordings = new Map<string, Recording>();

  constructor(
    private readonly host: {
      current(nodeId: string): Promise<DecodedPod[]>;
      node(nodeId: string): NodeInfo;
      marked(nodeId: string, path: string | undefined): void;
      problem(message: string, nextStep: string): void;
      /** The node's log files through its live link; undefined while it has none. */
      logFiles(nodeId: string): Promise<NodeLogFiles | undefined>;
    },
    private readonly bounds: CrashLogBounds = DEFAULT_CRASH_LOG_BOUNDS,
  ) {}

  async start(nodeId: string, path: string): Promise<void> {
    const node = this.host.node(nodeId);
    if (this.recordings.has(nodeId)) throw new ContractError('invalid-input', `${node.label} is being recorded already.`, 'Stop that recording first.');
    if (node.state.phase !== 'live') {
      throw new ContractError('invalid-input', `${node.label} is not live, so there is nothing to record.`, 'Connect the node and start the recording once it is live.');
    }
    if (node.rowsOnly) {
      throw new ContractError('unavailable', `${node.label} cannot be recorded here: ${ROWS_ONLY_WHY}, and a recording writes every version of every pod.`, `${KEEP_WHOLE_PODS}; or record it alone with nodescope record in a terminal.`);
    }
    const pods = await this.host.current(nodeId);
    let writer: RecordingWriter;
    try {
      writer = await startRecording(path, { provenance: { node: node.label, origin: 'nodescope ui' }, pods });
    } catch (err) {
      throw new ContractError('export-failed', err instanceof Error ? err.message : String(err), 'Choose a new file in a folder you can write to.');
    }
    const capture = new CrashLogCapture(
      async () => {
        const files = await this.host.logFiles(nodeId);
        return files && { logs: containerLogs(files.access), logsDir: files.logsDir };
      },
      this.bounds,
      (log) => writer.appendCrashLog(log),
    );
    for (const p of pods) capture.baseline(p.pod);
    this.recordings.set(nodeId, { writer, present: new Set(pods.flatMap((p) => uidOf(p) ?? [])), capture });
    this.host.marked(nodeId, path);
  }

  async stop(nodeId: string): Promise<{ path: string; events: number }> {
    const recording = this.recordings.get(nodeId);
    if (!recording) throw new ContractError('not-found', 'This node is not being recorded.', 'Start a recording first.');
    this.recordings.delete(nodeId);
    this.host.marked(nodeId, undefined);
    await recording.capture.drain();
    await recording.writer.close();
    return { path: recording.writer.path, events: recording.writer.events };
  }

  /** A node went away: its recording ends cleanly. */
  stopQuietly(nodeId: string): void {
    const recording = this.recordings.get(nodeId);
    this.recordings.delete(nodeId);
    void recording?.writer.close().catch(() => undefined);
  }

  /** Pods are decoded here only while the node is recorded. */
  podEvent(nodeId: string, type: PodEventType | 'RESET', held: HeldStored[]): void {
    const recording = this.recordings.get(nodeId);
    if (!recording) return;
    // The recording's own clock: a wall clock stepped meanwhile moves neither order nor elapsed time.
    const time = recording.writer.now();
    try {
      // Switched to rows only (more nodes opened, or the setting lowered): what comes now is no longer whole pods.
      if (held.some(isNotHeld)) throw new Error(`${this.host.node(nodeId).label} now keeps rows only: more nodes are open than "Keep rows only above" in Settings, so its pods' versions are no longer received`);
      const stored = held as StoredPod[];
      if (type !== 'RESET') {
        this.append(recording, time, type, decodeStored(stored[0]!));
        return;
      }
      const listed = new Set<string>();
      for (const pod of stored.map(decodeStored)) {
        const uid = uidOf(pod);
        if (uid) listed.add(uid);
        this.append(recording, time, uid && recording.present.has(uid) ? 'MODIFIED' : 'ADDED', pod);
      }
      for (const uid of [...recording.present]) {
        if (!listed.has(uid)) this.append(recording, time, 'DELETED', { pod: { metadata: { uid } }, unknownFields: [] });
      }
    } catch (err) {
      this.recordings.delete(nodeId);
      this.host.marked(nodeId, undefined);
      void recording.writer.close().catch(() => undefined);
      this.host.problem(`Recording ${recording.writer.path} stopped: ${err instanceof Error ? err.message : String(err)}`, 'What was recorded up to then is kept and opens as a recording.');
    }
  }

  async close(): Promise<void> {
    const all = [...this.recordings.values()];
    this.recordings.clear();
    await Promise.all(all.map((r) => r.capture.drain().then(() => r.writer.close()).catch(() => undefined)));
  }

  private append(recording: Recording, time: number, type: PodEventType, pod: DecodedPod): void {
    const uid = uidOf(pod);
    if (uid) {
      if (type === 'DELETED') recording.present.delete(uid);
      else recording.present.add(uid);
    }
    recording.writer.append({ time, type, pod });
    if (type !== 'DELETED') recording.capture.seen(pod.pod);
    else if (uid) recording.capture.forget(uid);
  }
}
