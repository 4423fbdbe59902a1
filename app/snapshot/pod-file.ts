/** What opening a pod file gives: a snapshot (one pod set) or a recording (a pod set over time). */
import type { DecodedPod } from '../pod/pod-tree';
import type { CrashLog } from '../recording/crash-log';
import type { HeapUse } from './kept-pods-budget';
import type { PodFileProvenance } from './snapshot-provenance';

export type { PodFileProvenance } from './snapshot-provenance';

/** The forms Nodescope reads. */
export type PodFileFormat = 'list-json' | 'ndjson' | 'pod-json' | 'yaml' | 'pod-pb' | 'list-pods-response-pb' | 'recording';

export interface SnapshotFile {
  kind: 'snapshot';
  /** The path opened, or the name of an upload. */
  path: string;
  format: PodFileFormat;
  provenance: PodFileProvenance;
  pods: DecodedPod[];
  /** What the user should know but that did not stop the file from opening (a stale sidecar, pods of unknown fields). */
  notes: string[];
}

export interface RecordingEvent {
  /** Arrival time, epoch ms. */
  time: number;
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  pod: DecodedPod;
}

export interface RecordingFile {
  kind: 'recording';
  path: string;
  format: 'recording';
  provenance: PodFileProvenance;
  /** When the initial pod set was taken, epoch ms. */
  start: number;
  /** When recording stopped (or, after a crash, the last event's time), epoch ms. */
  end: number;
  initial: DecodedPod[];
  events: RecordingEvent[];
  /** The ends of the logs of container instances that ended while recording (LOG lines), in time order. */
  crashLogs: CrashLog[];
  /** The pods held at `time` (epoch ms); the initial set for any time before the first event. */
  podsAt(time: number): DecodedPod[];
  /** false when the recording was not stopped cleanly (a crash, a full disk); `notes` says what was dropped. */
  complete: boolean;
  notes: string[];
}

export type PodFile = SnapshotFile | RecordingFile;

export interface PodFileLimits {
  /** Larger files are refused before reading (default 2 GiB). */
  maxFileBytes: number;
  /** One pod (or a List without its items), as text (default 16 MiB). */
  maxPieceBytes: number;
  /** Nesting of objects and arrays (default 64). */
  maxDepth: number;
  /** A YAML file, which is read whole and parsed in one block at many times its size (default 32 MiB). */
  maxYamlBytes: number;
  /** Most pods kept from one file, a recording's events included (default 1,000,000: half an hour of a node changing 500 times a second). */
  maxPods: number;
  /** Share of the process's heap limit the pods read may fill before opening stops (default 0.75). */
  maxHeapShare: number;
}

export const DEFAULT_POD_FILE_LIMITS: PodFileLimits = { maxFileBytes: 2 * 1024 ** 3, maxPieceBytes: 16 * 1024 ** 2, maxDepth: 64, maxYamlBytes: 32 * 1024 ** 2, maxPods: 1_000_000, maxHeapShare: 0.75 };

export interface PodFileProgress {
  pods: number;
  bytes: number;
  totalBytes?: number;
}

export interface ReadPodFileOptions {
  signal?: AbortSignal;
  onProgress?: (progress: PodFileProgress) => void;
  /** Tighter (or looser) limits than the defaults; tests use small ones. */
  limits?: Partial<PodFileLimits>;
  /** Reads the heap in use and its limit (default: V8's own figures); tests stand in for a full heap. */
  heap?: () => HeapUse;
}
