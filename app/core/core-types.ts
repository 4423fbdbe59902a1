import type { AddNodeSpec, MaskCheck, NodeInfo, RequestHandlers, Settings } from '../contract';
import type { MaskPreset } from '../mask/mask-presets';
import type { DecodedPod } from '../pod/pod-tree';
import type { NodeLink, NodeLinkRequest } from './node-link';
import type { IncomingPod } from './node-pods';
import type { HistoryLimits } from './pod-history';
import type { SourceDiffJobsOptions } from './source-diff-jobs';

/** A pod change as a source reports it. */
export type PodEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** A file's pods, read on the Node side (app/snapshot) and handed to the core as an offline source. */
export type OfflineSource = {
  file: string;
  label?: string;
  /** When the pods were taken (epoch ms), null when the file does not say. */
  takenAt: number | null;
  /** Where they were taken: the node's name, else the file's. */
  origin: string;
} & (
  | { kind: 'snapshot'; pods: DecodedPod[] }
  | {
      kind: 'recording';
      start: number;
      end: number;
      initial: DecodedPod[];
      events: { time: number; type: PodEventType; pod: DecodedPod }[];
      podsAt(time: number): DecodedPod[];
    }
);

/** A recording's pods: an offline source with a time axis. */
export type RecordingSource = Extract<OfflineSource, { kind: 'recording' }>;

/** The requests the core answers itself; the Node side adds the rest (files, exports, host facts). */
export type CoreRequest =
  | 'nodes.list'
  | 'nodes.add'
  | 'nodes.addMany'
  | 'nodes.setGroup'
  | 'nodes.update'
  | 'nodes.remove'
  | 'nodes.connect'
  | 'nodes.disconnect'
  | 'nodes.startDemo'
  | 'nodes.setMask'
  | 'nodes.metrics'
  | 'pods.rows'
  | 'pods.watch'
  | 'pods.get'
  | 'pods.history'
  | 'pods.version'
  | 'history.limits'
  | 'history.setLimits'
  | 'memory.usage'
  | 'sources.setTime'
  | 'fleet.matrix'
  | 'fleet.watchMatrix'
  | 'prompts.pending'
  | 'prompts.answer'
  | 'mask.validate'
  | 'mask.preview'
  | 'mask.presets'
  | 'mask.savePreset'
  | 'mask.deletePreset'
  | 'notices.list'
  | 'notices.dismiss'
  | 'diff.run'
  | 'diff.result'
  | 'diff.forget'
  | 'diff.pods';


/** The core's handler table: one handler per request it answers, each concern's from its own file (*-handlers.ts). */
export type CoreHandlers = Pick<RequestHandlers, CoreRequest>;

/** The mask presets, built-in and the user's: kept on the Node side (presets.json), like the node list. */
export interface PresetStore {
  /** Built-in presets, then the saved ones by name. */
  all(): MaskPreset[];
  /** Saves (or replaces) a preset of the user's from a checked mask; the presets as they are now. */
  save(name: string, check: MaskCheck): Promise<MaskPreset[]>;
  remove(name: string): Promise<MaskPreset[]>;
}

export interface CoreOptions {
  /** Opens a live source: an SSH node, a socket on this machine, the demo node. */
  openLink(request: NodeLinkRequest): NodeLink;
  /** The list of remembered nodes changed (added, removed, mask set): the Node side saves it. */
  remembered?(nodes: RememberedNode[]): Promise<void>;
  /** The mask presets; without it only the built-in ones, and none can be saved. */
  presets?: PresetStore;
  /** A node was removed, after its link closed (the Node side stops the demo kubelet). */
  removed?(info: NodeInfo): Promise<void>;
  /**
   * A node's settings were edited, its old connection closed, before it reconnects; sameMachine false: it
   * now reaches another machine (the Node side ends a recording of the old one's pods there).
   */
  edited?(info: NodeInfo, sameMachine: boolean): Promise<void>;
  /**
   * Every live pod event, after the core applied it (recordings are written from here; decodeStored gives a
   * tree of a pod held, a rows-only node's are not).
   */
  podEvent?(nodeId: string, type: PodEventType | 'RESET', pods: IncomingPod[]): void;
  /** A node's pods are held another way now (switched to rows only or back): memory was let go of, or taken. */
  reheld?(nodeId: string): void;
  history?: HistoryLimits;
  /** The app's settings at start (the host's settings.json); default DEFAULT_SETTINGS. */
  settings?: Settings;
  now?: () => number;
  /** Pod batches go out at most once per frame of this many ms (tests shorten it). */
  frameMs?: number;
  /** Longest stretch of whole-node work (a mask preview, the fleet matrix) between two turns of the event loop, in ms (tests shorten it). */
  sliceMs?: number;
  /** A watched fleet matrix is built again at most this often, in ms (tests shorten it). */
  matrixPaceMs?: number;
  /** Source comparisons' time slices and progress pace (tests shorten them). */
  diffJobs?: SourceDiffJobsOptions;
}

/** A node the user added, as it is remembered across restarts. */
export interface RememberedNode {
  spec: AddNodeSpec;
  mask: string;
  keptMask?: unknown;
}
