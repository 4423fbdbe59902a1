import {
  ContractError,
  DIFF_PAGE_MAX,
  type AddNodeSpec,
  type MaskCheck,
  type NodeInfo,
  type NodeMetrics,
  type NodeSpec,
  type NodeState,
  type PodDetail,
  type PodHistoryView,
  type Prompt,
  type RequestHandlers,
} from '../contract';
import { SUMMARY_FIELD_SOURCES, unselectedFields } from '../pod/view/pod-field-sources';
import { podRowFromTree } from '../pod/view/pod-row-from-tree';
import { matrixPodOf, workloadMatrixSteps, type MatrixPod, type MatrixSource, type WorkloadMatrix } from '../fleet/workload-matrix';
import { summarizePod } from '../pod/view/summarize-pod';
import { AppNotices } from './app-notices';
import type { AppCore, AppEvent } from './app-event';
import { maskPreviewSteps } from './mask-preview';
import { checkMask, maskOf } from './node-mask';
import type { LiveNodeSpec, NodeLink, NodeLinkRequest } from './node-link';
import { incomingUid, NodePods, type IncomingPod } from './node-pods';
import { describePodChange } from './pod-change';
import { PromptBroker } from './prompt-broker';
import { applyFieldMask, type FieldMask } from '../mask/field-mask';
import { fetchedCovers, sharedPaths } from '../mask/mask-coverage';
import { BUILT_IN_PRESETS, type MaskPreset } from '../mask/mask-presets';
import { firstPodOfEachUid, identityOf } from '../pod/first-pod-of-uid';
import { podToKubectlJson } from '../pod/kubectl-json';
import type { DecodedPod, PodTree } from '../pod/pod-tree';
import { decodeStored, type StoredPod } from '../pod/stored-pod';
import { SharedValues } from '../util/shared-values';
import { runInSlices } from '../util/time-slices';
import { SourceDiffJobs, type DiffSideInput, type SourceDiffJobsOptions } from './source-diff-jobs';
import { MATRIX_PACE_MS, watchMatrix } from './matrix-watch';
import { PodWatchers } from './pod-watchers';
import { SharedBuild } from './shared-build';
import { sameMachine } from './same-machine';
import { DEFAULT_HISTORY_LIMITS, PodHistory, type HistoryLimits, type PodVersion, type VersionEvent } from './pod-history';

/** A pod change as a source reports it. */
export type PodEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** A file's pods, read on the Node side (app/snapshot) and handed to the hub as an offline source. */
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

/** The requests the hub answers itself; the Node side adds the rest (files, exports, host facts). */
export type HubRequest =
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

/** The mask presets, built-in and the user's: kept on the Node side (presets.json), like the node list. */
export interface PresetStore {
  /** Built-in presets, then the saved ones by name. */
  all(): MaskPreset[];
  /** Saves (or replaces) a preset of the user's from a checked mask; the presets as they are now. */
  save(name: string, check: MaskCheck): Promise<MaskPreset[]>;
  remove(name: string): Promise<MaskPreset[]>;
}

export interface HubOptions {
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
  /** Every live pod event, after the hub applied it (recordings are written from here; decodeStored gives a tree). */
  podEvent?(nodeId: string, type: PodEventType | 'RESET', pods: StoredPod[]): void;
  history?: HistoryLimits;
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

export interface Hub extends Omit<AppCore, 'handlers'> {
  handlers: Pick<RequestHandlers, HubRequest>;
  notices: AppNotices;
  /** Adds a node the user had added before (nodes.json), with its mask; see restoreNode. */
  restore(node: RememberedNode & { maskProblem?: string }): NodeInfo;
  /** Opens a file's pods as an offline source. */
  openOffline(source: OfflineSource): NodeInfo;
  /** The node, for the Node side's requests (exports, recordings). */
  node(nodeId: string): NodeInfo;
  /**
   * The pods as shown (masked like the table), all or these UIDs, and how many; for exports. Each is
   * decoded as it is iterated: a node's pods are never all trees at once.
   */
  shownPods(nodeId: string, uids: 'all' | string[]): Iterable<PodTree> & { readonly length: number };
  /** The mask those pods went through, for printing exactly its fields; null for whole pods. */
  fieldMask(nodeId: string): FieldMask | null;
  /** The node's current pods as received (unmasked by the app), for a recording's start. */
  currentPods(nodeId: string): DecodedPod[];
  /** Marks the node as being recorded to path (undefined: no longer). */
  setRecording(nodeId: string, path: string | undefined): void;
  close(): Promise<void>;
}

interface NodeRecord {
  info: NodeInfo;
  pods: NodePods;
  history: PodHistory;
  /** The current connection; reports from an older one (closed, replaced) are ignored. */
  link: NodeLink | null;
  session: object | null;
  /** What the connection itself last reported; shown again once a question is answered. */
  linkState: NodeState;
  /** The question the node waits on; while set, the sidebar shows it instead of linkState. */
  prompt: Prompt | null;
  /** Its saved mask did not parse and it waits, unconnected, for the user to set one or connect. */
  maskLeftOff: boolean;
  /** That saved mask as it was read, saved back unchanged until the user sets a mask or connects. */
  keptMask?: unknown;
  /** A file's pods: never connected, never live. */
  offline?: OfflineSource;
  /** The latest CPU, memory, probes and devices the connection read; null when none. */
  metrics: NodeMetrics | null;
}

const DEMO_ID = 'demo';
const DEMO_SPEC: NodeSpec = { kind: 'demo', label: 'Demo node (simulated)' };

function labelOf(spec: NodeSpec): string {
  if (spec.label) return spec.label;
  switch (spec.kind) {
    case 'ssh':
      return spec.host;
    case 'unix':
      return `unix:${spec.socketPath}`;
    case 'demo':
      return 'Demo node';
    case 'snapshot':
    case 'recording':
      return spec.file.split('/').pop() || spec.file;
  }
}

/**
 * The app core behind the UI, with no Node in it: the sources (nodes, files), their connection
 * states, pod sets and pod histories, and the questions for the user. What needs Node (SSH, files,
 * dialogs, nodes.json, the demo kubelet) plugs in through HubOptions (app/inspector/inspector.ts);
 * the design preview runs it over an in-memory source.
 */
export function createHub(options: HubOptions): Hub {
  const now = options.now ?? Date.now;
  const listeners = new Set<(event: AppEvent) => void>();
  const emit = (event: AppEvent) => {
    for (const listener of listeners) listener(event);
  };
  const subscribe = (listener: (event: AppEvent) => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };
  const nodes = new Map<string, NodeRecord>();
  let limits = options.history ?? DEFAULT_HISTORY_LIMITS;
  let nextId = 1;
  const presets = (): MaskPreset[] => options.presets?.all() ?? [...BUILT_IN_PRESETS];

  /** The node's record as sent: a copy, with whether its history was trimmed as of now. */
  const infoOf = (record: NodeRecord): NodeInfo => {
    if (record.history.trimmedAny) record.info.historyTrimmed = true;
    else delete record.info.historyTrimmed;
    record.info.podCount = record.pods.size;
    return structuredClone(record.info);
  };
  const publish = (record: NodeRecord) => emit({ name: 'nodeState', payload: infoOf(record) });
  const setState = (record: NodeRecord, state: NodeState) => {
    record.info.state = state;
    publish(record);
  };

  const showState = (record: NodeRecord) => {
    const { prompt } = record;
    setState(record, prompt ? { phase: 'waitingForUser', waitingFor: prompt.kind, promptId: prompt.id } : record.linkState);
  };
  const linkReported = (record: NodeRecord, state: NodeState) => {
    record.linkState = state;
    showState(record);
  };

  const prompts = new PromptBroker(emit, (nodeId: string, prompt: Prompt | null) => {
    const record = nodes.get(nodeId);
    if (!record) return;
    record.prompt = prompt;
    showState(record);
  });

  // A batch goes to the windows watching its node. The node's record is sent again only when a batch
  // changed more than its pods (its history was trimmed): the pod count is the windows' own to keep.
  const podWatchers = new PodWatchers();
  const emitFromPods = (event: AppEvent) => {
    emit(event);
    if (event.name !== 'podDeltas') return;
    podWatchers.deliver(event.payload);
    const record = nodes.get(event.payload.nodeId);
    if (record && record.history.trimmedAny !== Boolean(record.info.historyTrimmed)) publish(record);
  };

  const recordOf = (nodeId: string): NodeRecord => {
    const record = nodes.get(nodeId);
    if (!record) throw new ContractError('not-found', `There is no node ${nodeId}.`, 'It was removed; pick a node from the list.');
    return record;
  };

  const notices = new AppNotices(emit);
  const diffJobs = new SourceDiffJobs(options.diffJobs);

  const remembered = (): RememberedNode[] =>
    [...nodes.values()].flatMap((r) =>
      r.info.spec.kind === 'ssh' || r.info.spec.kind === 'unix'
        ? [{ spec: r.info.spec, mask: r.info.mask, ...(r.keptMask !== undefined ? { keptMask: r.keptMask } : {}) }]
        : [],
    );
  const persist = () => options.remembered?.(remembered()) ?? Promise.resolve();
  const isRemembered = (record: NodeRecord) => record.info.spec.kind === 'ssh' || record.info.spec.kind === 'unix';

  /** A list's versions in the history: what changed, and deletions for what is gone since the last one. */
  const recordList = (record: NodeRecord, pods: IncomingPod[], time: number) => {
    const seen = new Set<string>();
    for (const pod of pods) {
      const uid = incomingUid(pod);
      if (!uid) continue;
      seen.add(uid);
      record.history.record(uid, 'LISTED', pod, time);
    }
    // Gone since the last list (deleted while the watch was down, or between two instants of a file).
    for (const uid of record.history.presentUids()) {
      const last = seen.has(uid) ? undefined : record.history.versions(uid).at(-1);
      if (last) record.history.record(uid, 'DELETED', last.pod, time);
    }
  };

  /** The pod set is exactly `pods` now. */
  const resetPods = (record: NodeRecord, pods: IncomingPod[], time = now()) => {
    recordList(record, pods, time);
    record.pods.replaceAll(pods);
  };

  const changePod = (record: NodeRecord, type: PodEventType, pod: IncomingPod, time = now()) => {
    const uid = incomingUid(pod);
    if (uid) record.history.record(uid, type, pod, time);
    if (type === 'DELETED') record.pods.remove(pod);
    else record.pods.upsert(type, pod);
  };

  const connect = async (record: NodeRecord) => {
    if (record.offline) return;
    // A node in error has stopped trying until the user acts: connecting again starts afresh.
    if (record.session && record.info.state.phase !== 'error') return;
    if (record.session) {
      await closeLink(record);
      // Meanwhile another connect (a double click) may have started one, or the node was removed:
      // a second link here would replace that one's and leave it running unclosed.
      if (record.session || nodes.get(record.info.id) !== record) return;
    }
    const session = {};
    record.session = session;
    // Connecting is the user's decision about a mask that was held back: without it, from now on.
    const decided = record.keptMask !== undefined;
    record.maskLeftOff = false;
    delete record.keptMask;
    if (decided && isRemembered(record)) void persist();
    const current = () => record.session === session;
    const { id } = record.info;
    const spec = record.info.spec as LiveNodeSpec;
    linkReported(record, { phase: 'connecting', attempt: 1 });
    const mask = record.pods.fieldMask;
    record.info.maskHonoured = null;
    const request: NodeLinkRequest = {
      nodeId: id,
      spec,
      ...(mask ? { mask } : {}),
      heldBytes: (uid) => record.history.latestBytes(uid),
      prompter: prompts.prompterFor(id),
      events: {
        state: (state) => current() && linkReported(record, state),
        reset: (pods) => {
          if (!current()) return;
          resetPods(record, pods);
          options.podEvent?.(id, 'RESET', pods);
        },
        change: (type, pod) => {
          if (!current()) return;
          changePod(record, type, pod);
          options.podEvent?.(id, type, [pod]);
        },
        maskHonoured: (honoured) => {
          if (!current() || record.info.maskHonoured === honoured) return;
          record.info.maskHonoured = honoured;
          publish(record);
        },
        readFrom: (api) => {
          if (!current() || record.info.readFrom === api) return;
          record.info.readFrom = api;
          publish(record);
        },
        metrics: (metrics) => current() && setMetrics(record, metrics),
      },
    };
    record.link = options.openLink(request);
  };

  const setMetrics = (record: NodeRecord, metrics: NodeMetrics | null) => {
    if (metrics === null && record.metrics === null) return;
    record.metrics = metrics;
    emit({ name: 'nodeMetrics', payload: { nodeId: record.info.id, metrics } });
  };

  const closeLink = async (record: NodeRecord) => {
    const link = record.link;
    record.link = null;
    record.session = null;
    // The link gives up its dial first, so a question it was asked for a jump host login it shares with
    // other nodes is handed on to one of them rather than declined for them all.
    const closing = link?.close();
    prompts.cancelNode(record.info.id);
    await closing;
    // What a closed connection read is not the node now: no stale CPU or devices shown as current.
    setMetrics(record, null);
  };

  const disconnect = async (record: NodeRecord) => {
    if (record.offline) return;
    record.maskLeftOff = false;
    await closeLink(record);
    // A disconnected node shows no pods rather than a stale set that looks live; their history
    // stays, and the next list says which were deleted meanwhile.
    record.pods.clear();
    linkReported(record, { phase: 'disconnected' });
  };

  const createRecord = (spec: NodeSpec, id: string, mask: string): NodeRecord => {
    const record: NodeRecord = {
      info: { id, label: labelOf(spec), simulated: spec.kind === 'demo', spec, state: { phase: 'disconnected' }, mask, maskPaths: [], maskHonoured: null, podCount: 0 },
      pods: new NodePods(id, emitFromPods, options.frameMs),
      history: new PodHistory(limits, now),
      link: null,
      session: null,
      linkState: { phase: 'disconnected' },
      prompt: null,
      maskLeftOff: false,
      metrics: null,
    };
    // Before the first publish and the first list, so neither the UI nor the pods ever see it unmasked.
    setRecordMask(record, mask);
    nodes.set(id, record);
    return record;
  };

  /** The mask text (checked already) becomes the node's: its pods, and the paths the UI marks by. */
  const setRecordMask = (record: NodeRecord, text: string) => {
    const mask = maskOf(text, presets());
    // A mask naming presets is kept written out, so a preset changed later does not change the node.
    record.info.mask = mask && text.includes('@') ? mask.paths.join(',') : text.trim();
    record.info.maskPaths = [...(mask?.paths ?? [])];
    record.pods.setMask(mask);
  };

  const addNode = (spec: NodeSpec, id = `node-${nextId++}`, mask = ''): NodeRecord => {
    const record = createRecord(spec, id, mask);
    publish(record);
    void connect(record);
    return record;
  };

  /**
   * A remembered node comes back with its mask. One whose saved mask no longer parses is not watched
   * unmasked behind the user's back: it waits in error, saying so, until they set a mask or connect.
   */
  const restore = ({ spec, mask, maskProblem, keptMask }: RememberedNode & { maskProblem?: string }): NodeInfo => {
    if (!maskProblem) return addNode(spec, undefined, mask).info;
    const record = createRecord(spec, `node-${nextId++}`, '');
    record.maskLeftOff = true;
    record.keptMask = keptMask;
    linkReported(record, {
      phase: 'error',
      cause: maskProblem,
      nextStep: 'Not connected yet: set the mask again (empty for whole pods) to connect with it, or connect to watch without a mask.',
    });
    return infoOf(record);
  };

  /** A file's deleted pods are in the file for good: its history does not expire them by the clock. */
  const limitsFor = (record: NodeRecord): HistoryLimits => (record.offline ? { ...limits, deletedRetentionMs: Number.POSITIVE_INFINITY } : limits);

  const timelineAt = (source: RecordingSource, at: number) => Math.min(source.end, Math.max(source.start, at));

  const offlineState = (source: OfflineSource, at?: number, leftOut: string[] = []): NodeState => ({
    phase: 'offline',
    takenAt: source.takenAt,
    origin: source.origin,
    ...(source.kind === 'recording' ? { timeline: { start: source.start, end: source.end, at: at ?? source.end } } : {}),
    ...(leftOut.length ? { leftOut } : {}),
  });

  const openOffline = (source: OfflineSource): NodeInfo => {
    const spec: NodeSpec = { kind: source.kind, file: source.file, ...(source.label ? { label: source.label } : {}) };
    const record = createRecord(spec, `${source.kind}-${nextId++}`, '');
    record.offline = source;
    record.history.setLimits(limitsFor(record));
    let leftOut: string[] = [];
    if (source.kind === 'snapshot') {
      // The hub follows pods by uid, so a file's pods go in as a live node's do: the first of each uid.
      const first = firstPodOfEachUid(source.pods, (p) => identityOf(p.pod));
      leftOut = first.leftOut;
      resetPods(record, first.kept, source.takenAt ?? now());
    } else {
      // The whole recording's history, so each pod's timeline is there (written straight to the history:
      // the events feed is for what happens now); the set shown is the one at the end.
      recordList(record, source.initial, source.start);
      for (const { type, pod, time } of source.events) {
        const uid = incomingUid(pod);
        if (uid) record.history.record(uid, type, pod, time);
      }
      record.pods.replaceAll(source.podsAt(source.end));
    }
    linkReported(record, offlineState(source, undefined, leftOut));
    return infoOf(record);
  };

  // Starts asked for at once (a double click) share one, or the second record would hide the first.
  let demoStarting: Promise<NodeRecord> | null = null;
  const startDemo = (): Promise<NodeRecord> => {
    demoStarting ??= (async () => {
      const existing = nodes.get(DEMO_ID);
      if (existing) {
        await connect(existing);
        return existing;
      }
      return addNode(DEMO_SPEC, DEMO_ID);
    })().finally(() => (demoStarting = null));
    return demoStarting;
  };

  /** A pod (current, deleted or an earlier version) as shown: through the node's mask, never zero-filled. */
  const detailOf = (record: NodeRecord, stored: StoredPod): PodDetail => {
    const decoded = decodeStored(stored);
    const shown = record.pods.shown(decoded);
    const mask = record.pods.fieldMask;
    return {
      json: podToKubectlJson(shown, mask ? { mask } : {}),
      summary: summarizePod(shown),
      notSelected: unselectedFields(SUMMARY_FIELD_SOURCES, mask?.paths ?? []),
      unknownFields: decoded.unknownFields.map((f) => ({
        path: f.path,
        fieldNumber: f.fieldNumber,
        wireType: f.wireType,
        rawHex: [...f.raw].map((b) => b.toString(16).padStart(2, '0')).join(''),
      })),
    };
  };

  /** A recording's history ends at the instant shown; other sources' is all of it. */
  const versionsOf = (record: NodeRecord, uid: string): readonly PodVersion[] => {
    const versions = record.history.versions(uid);
    const at = record.info.state.phase === 'offline' ? record.info.state.timeline?.at : undefined;
    return at === undefined ? versions : versions.filter((v) => v.time <= at);
  };

  const podDetail = (record: NodeRecord, uid: string): PodDetail => {
    const entry = record.pods.get(uid);
    if (entry) return detailOf(record, entry.pod);
    const last = versionsOf(record, uid).at(-1);
    if (last?.event === 'DELETED') return { ...detailOf(record, last.pod), deletedAt: last.time };
    throw new ContractError('not-found', `Pod ${uid} is not on ${record.info.label} (any more).`, 'It was deleted and its history has expired; pick another pod.');
  };

  const rowOf = (record: NodeRecord, version: PodVersion) => ({ ...podRowFromTree(record.pods.shown(version.pod)), uid: '' });
  const describeVersion = (record: NodeRecord, version: PodVersion, before: PodVersion | undefined, trimmed: boolean): string => {
    if (version.event === 'DELETED') return 'deleted';
    const after = rowOf(record, version);
    // What the mask leaves out is never reported as changed.
    const hidden = record.pods.hiddenFields;
    if (!before) return trimmed ? 'earliest version kept' : describePodChange(undefined, after, hidden).replace(/^added/, version.event === 'LISTED' ? 'listed' : 'added');
    return describePodChange(rowOf(record, before), after, hidden);
  };

  const podHistory = (record: NodeRecord, uid: string): PodHistoryView => {
    const versions = versionsOf(record, uid);
    if (versions.length === 0) {
      throw new ContractError('not-found', `Pod ${uid} has no history on ${record.info.label}.`, 'It was deleted and its history has expired; pick another pod.');
    }
    const trimmed = record.history.trimmed(uid);
    return {
      versions: versions.map((v, i) => ({ id: v.id, time: v.time, event: v.event, change: describeVersion(record, v, versions[i - 1], trimmed > 0) })),
      trimmed,
      deleted: versions.at(-1)!.event === 'DELETED',
      limits: { ...limits },
    };
  };

  /** Stops whole-node work under way (previews, matrices) when the hub closes. */
  const closing = new AbortController();
  /**
   * Runs whole-node work in time slices, so the watches are read and other requests answered meanwhile;
   * it stops when its caller cancels (`signal`) or the hub closes.
   */
  const inSlices = <P, R>(steps: Iterator<P, R>, signal?: AbortSignal, onPause?: (progress: P) => void): Promise<R> =>
    runInSlices(steps, { budgetMs: options.sliceMs ?? 12, signal: signal ? AbortSignal.any([closing.signal, signal]) : closing.signal, ...(onPause ? { onPause } : {}) });

  /** The last matrix built (or being built), and what it was built from. */
  const matrixBuild = new SharedBuild<WorkloadMatrix>();
  /** What the matrix read of each pod as received, through the mask it was shown with: read again only for a pod that changed. */
  const matrixPods = new WeakMap<StoredPod, { mask: FieldMask | null; pod: MatrixPod }>();
  const matrixShared = new SharedValues(10_000);
  const matrixPodFor = (record: NodeRecord, stored: StoredPod): MatrixPod => {
    const mask = record.pods.fieldMask;
    const kept = matrixPods.get(stored);
    if (kept?.mask === mask) return kept.pod;
    const pod = matrixPodOf(record.pods.shown(stored), matrixShared);
    matrixPods.set(stored, { mask, pod });
    return pod;
  };

  /**
   * The workload matrix of these sources. A matrix over a hundred nodes is rebuilt only when one of them
   * changed, and while one is being built for these sources, that one answers (never a pile of them); it
   * stops when every caller waiting for it cancelled.
   */
  const matrixOf = (nodeIds: string[], caller: AbortSignal): Promise<WorkloadMatrix> => {
    const records = nodeIds.map(recordOf);
    const version = JSON.stringify(records.map((r) => [r.info.id, r.info.label, r.info.state.phase, r.info.mask, r.pods.batches]));
    const build = (signal: AbortSignal) => {
      const labels = records.map((r) => r.info.label);
      // Columns are named by label, as the user sees them; two alike (two files of one name) by their ids too.
      const idOf = (r: NodeRecord, i: number) => (labels.indexOf(labels[i]!) === labels.lastIndexOf(labels[i]!) ? r.info.label : `${r.info.label} (${r.info.id})`);
      // The sources as they are now; each pod is read as the build reaches it.
      const read = records.map((r, i): { id: string; error: string } | { id: string; record: NodeRecord; pods: StoredPod[] } => {
        const { phase } = r.info.state;
        if (phase === 'live' || phase === 'offline') return { id: idOf(r, i), record: r, pods: [...r.pods.values()].map((e) => e.pod) };
        return { id: idOf(r, i), error: `not live (${phase === 'error' ? r.info.state.cause : phase})` };
      });
      const steps = (function* () {
        const inputs: MatrixSource[] = [];
        for (const source of read) {
          if ('error' in source) {
            inputs.push(source);
            continue;
          }
          const pods: MatrixPod[] = [];
          for (const stored of source.pods) {
            pods.push(matrixPodFor(source.record, stored));
            yield;
          }
          inputs.push({ id: source.id, pods });
        }
        return yield* workloadMatrixSteps(inputs);
      })();
      return inSlices(steps, signal);
    };
    return matrixBuild.get(nodeIds.join(','), version, build, caller);
  };

  const savedPresets = (): PresetStore => {
    if (options.presets) return options.presets;
    throw new ContractError('not-implemented', 'Mask presets cannot be saved here.', 'Save presets in the Nodescope app.');
  };

  /**
   * One side of a source comparison as it is now (a recording at `at`): its pods through its own mask
   * and the other side's, so only the fields both sides selected are compared.
   */
  const diffSide = (side: { nodeId: string; at?: number | undefined }, other: NodeRecord): DiffSideInput => {
    const record = recordOf(side.nodeId);
    const source = record.offline;
    let at: number | undefined;
    // A live pod's UID is its row's; a file's pods are trees already, read for theirs.
    let pods: { stored: StoredPod; uid?: string }[];
    if (source?.kind === 'recording') {
      const state = record.info.state;
      at = timelineAt(source, side.at ?? (state.phase === 'offline' ? state.timeline?.at : undefined) ?? source.end);
      pods = source.podsAt(at).map((stored) => ({ stored }));
    } else {
      if (side.at !== undefined) {
        throw new ContractError('invalid-input', `${record.info.label} is not a recording: it has no other time to compare.`, 'Leave the time out, or pick a recording.');
      }
      pods = [...record.pods.values()].map((e) => ({ stored: e.pod, uid: e.row.uid }));
    }
    const own = maskOf(record.info.mask, presets());
    const others = maskOf(other.info.mask, presets());
    const shared = sharedPaths(own?.paths ?? [], others?.paths ?? []);
    // Masks that share nothing leave only who each pod is to compare.
    const both = own || others ? maskOf(shared.length > 0 ? shared.join(',') : 'metadata.uid,metadata.name,metadata.namespace', []) : null;
    const shown = (stored: StoredPod) => {
      const { pod } = decodeStored(stored);
      return both ? applyFieldMask(pod, both) : pod;
    };
    return {
      info: { nodeId: side.nodeId, label: record.info.label, mask: record.info.mask, podCount: pods.length, ...(at !== undefined ? { at } : {}) },
      pods: pods.flatMap(({ stored, uid }) => {
        const known = uid ?? incomingUid(stored);
        if (!known) return [];
        // Decoded when the job reads it, in its time slices, and not kept: a node of 30,000 held as bytes
        // is neither decoded all at once when the comparison starts nor held decoded once it is done.
        return [{ uid: known, get tree() { return shown(stored); } }];
      }),
      ...(both ? { mask: both } : {}),
    };
  };

  const handlers: Hub['handlers'] = {
    'nodes.list': () => [...nodes.values()].map((r) => infoOf(r)),
    'nodes.add': async (spec) => {
      const record = addNode(spec);
      await persist();
      return infoOf(record);
    },
    'nodes.addMany': async ({ nodes: specs }) => {
      // All in the list at once, saved once; the Node side's limiter paces their dials.
      const records = specs.map((spec) => addNode(spec));
      await persist();
      return records.map(infoOf);
    },
    'nodes.setGroup': async ({ nodeIds, group }) => {
      const records = nodeIds.map(recordOf);
      for (const record of records) {
        const spec = record.info.spec;
        if (spec.kind === 'ssh' || spec.kind === 'unix') {
          if (group) spec.group = group;
          else delete spec.group;
        }
        publish(record);
      }
      await persist();
      return {};
    },
    'nodes.update': async ({ nodeId, spec }) => {
      const record = recordOf(nodeId);
      const before = record.info.spec;
      if (before.kind !== 'ssh' && before.kind !== 'unix') {
        throw new ContractError('invalid-input', `${record.info.label} has no connection settings to edit.`, 'Only nodes added with Add node can be edited; remove this one instead.');
      }
      const kept = sameMachine(before, spec);
      // The same record: its id, mask and place in the list stay; what the old settings read does not.
      // The settings change first, so a connect asked for meanwhile already uses the new ones.
      record.info.spec = spec;
      record.info.label = labelOf(spec);
      record.info.maskHonoured = null;
      delete record.info.readFrom;
      // Ends the old connection's session at once: nothing it still reports lands from here on.
      const closing = closeLink(record);
      record.pods.clear();
      // Another machine's pods are not this node's: kept, its next list would mark them all deleted.
      if (!kept) record.history.clear();
      linkReported(record, { phase: 'disconnected' });
      await closing;
      await options.edited?.(infoOf(record), kept);
      if (nodes.get(nodeId) !== record) throw new ContractError('not-found', `${record.info.label} was removed while it was being edited.`, 'Add it again with Add node.');
      void connect(record);
      await persist();
      return { node: infoOf(record), historyCleared: !kept };
    },
    'nodes.remove': async ({ nodeId }) => {
      const record = recordOf(nodeId);
      nodes.delete(nodeId);
      await disconnect(record);
      record.pods.close();
      record.history.clear();
      emit({ name: 'nodeRemoved', payload: { nodeId } });
      podWatchers.end(nodeId);
      await options.removed?.(record.info);
      if (isRemembered(record)) await persist();
      return {};
    },
    'nodes.connect': async ({ nodeId }) => {
      await connect(recordOf(nodeId));
      return {};
    },
    'nodes.disconnect': async ({ nodeId }) => {
      await disconnect(recordOf(nodeId));
      return {};
    },
    'nodes.startDemo': async () => infoOf(await startDemo()),
    'nodes.setMask': async ({ nodeId, mask }) => {
      const record = recordOf(nodeId);
      const check = checkMask(mask, presets());
      if (!check.ok) return check;
      const wasLive = record.session !== null && record.info.state.phase !== 'error';
      const fetchedWith = record.info.maskPaths;
      setRecordMask(record, mask);
      delete record.keptMask;
      publish(record);
      // A node held back for its unreadable saved mask starts as it would have, now with this one.
      if (record.maskLeftOff) void connect(record);
      else if (wasLive) {
        // The kubelet is asked again with the new mask. Pods fetched with a narrower one lack what
        // the new one selects: they are not shown meanwhile, rather than shown with fields missing.
        // (A file's pods are whole: a mask there only changes what is shown.)
        await closeLink(record);
        if (!fetchedCovers(fetchedWith, record.info.maskPaths)) record.pods.clear();
        void connect(record);
      }
      // The demo node is not remembered, nor its mask, nor files.
      if (isRemembered(record)) await persist();
      return check;
    },
    'nodes.metrics': ({ nodeId }) => structuredClone(recordOf(nodeId).metrics),
    'pods.rows': ({ nodeId }) => recordOf(nodeId).pods.snapshot(),
    'pods.watch': ({ nodeId }, call) => podWatchers.watch(recordOf(nodeId).info.id, call),
    'pods.get': ({ nodeId, uid }) => podDetail(recordOf(nodeId), uid),
    'pods.history': ({ nodeId, uid }) => podHistory(recordOf(nodeId), uid),
    'pods.version': ({ nodeId, uid, version }) => {
      const record = recordOf(nodeId);
      const found = versionsOf(record, uid).find((v) => v.id === version);
      if (!found) {
        throw new ContractError('not-found', `Version ${version} of pod ${uid} is not kept any more.`, 'Older versions are dropped to stay within the history limits; pick one from the timeline.');
      }
      return { ...detailOf(record, found.pod), versionTime: found.time };
    },
    'history.limits': () => ({ ...limits }),
    'history.setLimits': (next) => {
      limits = { ...next };
      for (const record of nodes.values()) {
        record.history.setLimits(limitsFor(record));
        publish(record);
      }
      return { ...limits };
    },
    'sources.setTime': ({ nodeId, at }) => {
      const record = recordOf(nodeId);
      const source = record.offline;
      if (source?.kind !== 'recording') {
        throw new ContractError('invalid-input', `${record.info.label} is not a recording: it has no time axis.`, 'Open a recording to move through its time.');
      }
      const instant = timelineAt(source, at);
      // The history stays whole; only the set shown and the versions listed follow the instant.
      record.pods.replaceAll(source.podsAt(instant));
      linkReported(record, offlineState(source, instant));
      return infoOf(record);
    },
    'fleet.matrix': ({ nodeIds }, call) => matrixOf(nodeIds, call.signal),
    'fleet.watchMatrix': ({ nodeIds }, call) => {
      const ids = new Set(nodeIds.map((id) => recordOf(id).info.id));
      const changes = (changed: () => void) =>
        subscribe((event: AppEvent) => {
          const nodeId = event.name === 'nodeState' ? event.payload.id : event.name === 'podDeltas' || event.name === 'nodeRemoved' ? event.payload.nodeId : null;
          if (nodeId !== null && ids.has(nodeId)) changed();
        });
      // The watch ends with its caller, or when the core closes.
      const signal = AbortSignal.any([call.signal, closing.signal]);
      return watchMatrix((build) => matrixOf(nodeIds, build), changes, { ...call, signal }, options.matrixPaceMs ?? MATRIX_PACE_MS);
    },
    'prompts.pending': () => prompts.pending(),
    'prompts.answer': ({ promptId, answer }) => {
      prompts.answer(promptId, answer);
      return {};
    },
    'mask.validate': ({ mask }) => checkMask(mask, presets()),
    'mask.preview': async ({ nodeId, mask, uid }, call) => {
      const record = recordOf(nodeId);
      const check = checkMask(mask, presets());
      if (!check.ok) return check;
      const parsed = maskOf(mask, presets());
      if (!parsed) throw new ContractError('invalid-input', 'Give a field mask to preview.', 'Tick fields in the tree or type paths, e.g. metadata.name,status.phase.');
      // The pods as they are now; each is decoded as the preview reaches it.
      const pods = [...record.pods.values()].map((e) => e.pod);
      const sample = (uid ? record.pods.get(uid)?.pod : undefined) ?? pods[0];
      // A file's pods are whole whatever mask it is shown through; a node's were fetched with its mask.
      const steps = maskPreviewSteps(pods, parsed, sample && decodeStored(sample).pod, record.offline ? '' : record.info.mask);
      // The user typing a mask asks again and again: the builder cancels the previews it no longer shows.
      return inSlices(steps, call.signal, (done) => call.progress({ done, total: pods.length }));
    },
    'mask.presets': () => presets(),
    'mask.savePreset': ({ name, mask }) => savedPresets().save(name, checkMask(mask, presets())),
    'mask.deletePreset': ({ name }) => savedPresets().remove(name),
    'notices.list': () => notices.list(),
    'notices.dismiss': ({ id }) => {
      notices.dismiss(id);
      return {};
    },
    'diff.run': async ({ left, right, noise }, call) => {
      const l = recordOf(left.nodeId);
      const r = recordOf(right.nodeId);
      const jobId = await diffJobs.run(diffSide(left, r), diffSide(right, l), noise ?? { defaults: true }, call);
      return diffJobs.result(jobId, 0, DIFF_PAGE_MAX);
    },
    'diff.result': ({ jobId, offset, limit }) => diffJobs.result(jobId, offset, limit),
    'diff.forget': ({ jobId }) => {
      diffJobs.forget(jobId);
      return {};
    },
    'diff.pods': ({ jobId, leftUid, rightUid }) => diffJobs.pods(jobId, leftUid, rightUid),
  };

  return {
    handlers,
    notices,
    restore,
    openOffline,
    node: (nodeId) => infoOf(recordOf(nodeId)),
    shownPods(nodeId, uids) {
      const record = recordOf(nodeId);
      const entries = uids === 'all' ? [...record.pods.values()] : uids.flatMap((uid) => record.pods.get(uid) ?? []);
      return {
        length: entries.length,
        *[Symbol.iterator]() {
          for (const e of entries) yield record.pods.shown(e.pod);
        },
      };
    },
    fieldMask: (nodeId) => recordOf(nodeId).pods.fieldMask,
    currentPods: (nodeId) => [...recordOf(nodeId).pods.values()].map((e) => decodeStored(e.pod)),
    setRecording(nodeId, path) {
      const record = nodes.get(nodeId);
      if (!record) return;
      if (path) record.info.recordingTo = path;
      else delete record.info.recordingTo;
      publish(record);
    },
    subscribe,
    async close() {
      diffJobs.close();
      podWatchers.close();
      closing.abort(new ContractError('cancelled', 'Nodescope is closing.'));
      for (const record of nodes.values()) {
        await closeLink(record);
        record.pods.close();
      }
      nodes.clear();
      listeners.clear();
    },
  };
}
