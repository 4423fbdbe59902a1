import { ContractError, DEFAULT_SETTINGS, type Settings, type NodeInfo, type NodeMetrics, type NodeSpec, type NodeState, type Prompt } from '../contract';
import { BUILT_IN_PRESETS, type MaskPreset } from '../mask/mask-presets';
import { firstPodOfEachUid, identityOf } from '../pod/first-pod-of-uid';
import { isNotHeld } from '../pod/stored-pod';
import { isUserAdded, labelOf, sourceKind } from '../source/kinds/source-kinds';
import { runInSlices } from '../util/time-slices';
import { AppNotices } from './app-notices';
import { isNodeWatchEvent, type AppEvent } from './app-event';
import type { CoreOptions, OfflineSource, PodEventType, RecordingSource, RememberedNode } from './core-types';
import { maskOf } from './node-mask';
import type { LiveNodeSpec, NodeLink, NodeLinkRequest } from './node-link';
import { incomingUid, NodePods, type IncomingPod } from './node-pods';
import { DEFAULT_HISTORY_LIMITS, PodHistory, type HistoryLimits, type PodVersion } from './pod-history';
import { MemoryBudget } from './memory-budget';
import { PromptBroker } from './prompt-broker';
import { RowsOnlyFleet } from './rows-only-fleet';
import type { CrashLog } from '../recording/crash-log';
import { PodWatchers } from './pod-watchers';
import { SourceDiffJobs } from './source-diff-jobs';

/** One source as the core holds it: what the UI is told of it, its pods, their history, its connection. */
export interface NodeRecord {
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

/** A recording's instant, within its time axis. */
export const timelineAt = (source: RecordingSource, at: number): number => Math.min(source.end, Math.max(source.start, at));

export const offlineState = (source: OfflineSource, at?: number, leftOut: string[] = []): NodeState => ({
  phase: 'offline',
  takenAt: source.takenAt,
  origin: source.origin,
  ...(source.kind === 'recording' ? { timeline: { start: source.start, end: source.end, at: at ?? source.end } } : {}),
  ...(leftOut.length ? { leftOut } : {}),
});

/** A recording's history ends at the instant shown; other sources' is all of it. */
export const versionsOf = (record: NodeRecord, uid: string): readonly PodVersion[] => {
  const versions = record.history.versions(uid);
  const at = record.info.state.phase === 'offline' ? record.info.state.timeline?.at : undefined;
  return at === undefined ? versions : versions.filter((v) => v.time <= at);
};

/** The pod's kept crash logs; a recording's up to the instant shown. */
export const crashLogsOf = (record: NodeRecord, uid: string): readonly CrashLog[] => {
  const logs = record.history.crashLogs(uid);
  const at = record.info.state.phase === 'offline' ? record.info.state.timeline?.at : undefined;
  return at === undefined ? logs : logs.filter((l) => l.time <= at);
};

/** What every concern's handlers share: the sources and their records, and the core's events. */
export type CoreState = ReturnType<typeof createCoreState>;

/**
 * The sources the core holds, with no Node in it: their records, connection states, pod sets and pod
 * histories, and the questions for the user. What needs Node plugs in through CoreOptions.
 */
export function createCoreState(options: CoreOptions) {
  const now = options.now ?? Date.now;
  const listeners = new Set<(event: AppEvent) => void>();
  const emit = (event: AppEvent) => {
    for (const listener of listeners) listener(event);
  };
  const nodes = new Map<string, NodeRecord>();
  let limits = options.history ?? DEFAULT_HISTORY_LIMITS;
  let settings = options.settings ?? DEFAULT_SETTINGS;
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

  // A batch or feed lines go to the windows watching its node. The node's record is sent again only when a
  // batch changed more than its pods (its history was trimmed): the pod count is the windows' own to keep.
  const podWatchers = new PodWatchers();
  const emitFromPods = (event: AppEvent) => {
    emit(event);
    if (!isNodeWatchEvent(event)) return;
    podWatchers.deliver(event.payload);
    if (event.name !== 'podDeltas') return;
    const record = nodes.get(event.payload.nodeId);
    if (record && record.history.trimmedAny !== Boolean(record.info.historyTrimmed)) publish(record);
  };

  const recordOf = (nodeId: string): NodeRecord => {
    const record = nodes.get(nodeId);
    if (!record) throw new ContractError('not-found', `There is no node ${nodeId}.`, 'It was removed; pick a node from the list.');
    return record;
  };

  const notices = new AppNotices(emit);
  const rowsOnlyFleet = new RowsOnlyFleet(nodes, () => settings.rowsOnlyAbove, notices);
  const memory = new MemoryBudget(settings.memoryBudget, notices, (sources) => {
    for (const id of sources) {
      const record = nodes.get(id);
      if (record && record.history.trimmedAny !== Boolean(record.info.historyTrimmed)) publish(record);
    }
  });
  const diffJobs = new SourceDiffJobs(options.diffJobs);

  const remembered = (): RememberedNode[] =>
    [...nodes.values()].flatMap((r) =>
      isUserAdded(r.info.spec)
        ? [{ spec: r.info.spec, mask: r.info.mask, ...(r.keptMask !== undefined ? { keptMask: r.keptMask } : {}) }]
        : [],
    );
  const persist = () => options.remembered?.(remembered()) ?? Promise.resolve();
  const isRemembered = (record: NodeRecord) => isUserAdded(record.info.spec);

  /** A list's versions in the history: what changed, and deletions for what is gone since the last one. */
  const recordList = (record: NodeRecord, pods: IncomingPod[], time: number) => {
    // A rows-only node keeps no versions, also of pods it still holds whole as it switches.
    if (record.info.rowsOnly) return;
    const seen = new Set<string>();
    for (const pod of pods) {
      const uid = incomingUid(pod);
      // A rows-only node keeps no versions: they would be the bytes it does not keep.
      if (!uid || isNotHeld(pod)) continue;
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
    countRowsOnly(record);
  };

  /** The memory budget hears of a source's pods through its history, which keeps none of a rows-only node's: their rows are counted apart. */
  const countRowsOnly = (record: NodeRecord) => record.history.holdRowsOnly(record.info.rowsOnly ? record.pods.size : 0);

  const changePod = (record: NodeRecord, type: PodEventType, pod: IncomingPod, time = now()) => {
    const uid = incomingUid(pod);
    if (uid && !isNotHeld(pod) && !record.info.rowsOnly) record.history.record(uid, type, pod, time);
    if (type === 'DELETED') record.pods.remove(pod);
    else record.pods.upsert(type, pod);
    countRowsOnly(record);
  };

  const connect = async (record: NodeRecord) => {
    // A removed node is never connected again (a mask change reconnecting it when it went): its link would
    // run unclosed, and tell windows of a node they were told is gone.
    if (record.offline || nodes.get(record.info.id) !== record) return;
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
    delete record.info.rowsOnly;
    const request: NodeLinkRequest = {
      nodeId: id,
      spec,
      ...(mask ? { mask } : {}),
      heldBytes: (uid) => record.history.latestBytes(uid),
      rowsOnly: rowsOnlyFleet.keepsRowsOnly,
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
        sshClient: (client) => {
          if (!current() || record.info.sshClient === client) return;
          record.info.sshClient = client;
          publish(record);
        },
        metrics: (metrics) => current() && setMetrics(record, metrics),
        rowsOnly: (rowsOnly) => {
          if (!current()) return;
          const was = record.info.rowsOnly === true;
          if (rowsOnly) record.info.rowsOnly = true;
          else delete record.info.rowsOnly;
          // Its history is of whole pods it no longer receives: kept as it was, it would look current.
          if (rowsOnly) record.history.clear();
          // Whole again (switched back in place): the history starts from the pods as they are now.
          else if (was) recordList(record, [...record.pods.values()].flatMap((e) => (isNotHeld(e.pod) ? [] : [e.pod])), now());
          countRowsOnly(record);
          publish(record);
        },
        rehold: (pods) => {
          if (!current()) return;
          record.pods.hold(pods);
          countRowsOnly(record);
          // Recordings and crash-log capture hear of the pods as they are held now (they hold them too).
          options.podEvent?.(id, 'RESET', pods);
          options.reheld?.(id);
        },
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
      info: { id, label: labelOf(spec), simulated: sourceKind(spec).simulated, spec, state: { phase: 'disconnected' }, mask, maskPaths: [], maskHonoured: null, podCount: 0 },
      pods: new NodePods(id, emitFromPods, options.frameMs),
      history: new PodHistory(limits, now, memory.forSource(id)),
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
    rowsOnlyFleet.recount();
    return record;
  };

  /** Adds the nodes a step at a time (nodes.addMany's time slices), counting those still to come (RowsOnlyFleet). */
  function* addNodesSteps(specs: NodeSpec[]): Generator<void, NodeRecord[]> {
    // The nodes open switch as the batch starts, not as its last node is added.
    rowsOnlyFleet.expect(specs.length);
    rowsOnlyFleet.recount();
    let taken = 0;
    const added: NodeRecord[] = [];
    try {
      for (const spec of specs) {
        // No longer coming before it is added: counted once, as a record, when its link asks.
        taken++;
        rowsOnlyFleet.expect(-1);
        added.push(addNode(spec));
        yield;
      }
    } finally {
      rowsOnlyFleet.expect(taken - specs.length);
      rowsOnlyFleet.recount();
    }
    return added;
  }

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

  const openOffline = (source: OfflineSource): NodeInfo => {
    const spec: NodeSpec = { kind: source.kind, file: source.file, ...(source.label ? { label: source.label } : {}) };
    const record = createRecord(spec, `${source.kind}-${nextId++}`, '');
    record.offline = source;
    record.history.setLimits(limitsFor(record));
    let leftOut: string[] = [];
    if (source.kind === 'snapshot') {
      // The core follows pods by uid, so a file's pods go in as a live node's do: the first of each uid.
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

  /**
   * Removals still closing their node, by id. The demo node's id comes back when it is started again: until
   * the old one's removal is over, its end (nodeRemoved, its watchers, the host stopping the demo kubelet)
   * would land on the new one.
   */
  const removals = new Map<string, Promise<unknown>>();
  // Starts asked for at once (a double click) share one, or the second record would hide the first.
  let demoStarting: Promise<NodeRecord> | null = null;
  const startDemo = (): Promise<NodeRecord> => {
    demoStarting ??= (async () => {
      await removals.get(DEMO_ID)?.catch(() => undefined);
      const existing = nodes.get(DEMO_ID);
      if (existing) {
        await connect(existing);
        return existing;
      }
      return addNode(DEMO_SPEC, DEMO_ID);
    })().finally(() => (demoStarting = null));
    return demoStarting;
  };

  /** Stops whole-node work under way (previews, matrices) and subscriptions when the core closes. */
  const closing = new AbortController();
  /**
   * Runs whole-node work in time slices, so the watches are read and other requests answered meanwhile;
   * it stops when its caller cancels (`signal`) or the core closes.
   */
  const inSlices = <P, R>(steps: Iterator<P, R>, signal?: AbortSignal, onPause?: (progress: P) => void): Promise<R> =>
    runInSlices(steps, { budgetMs: options.sliceMs ?? 12, signal: signal ? AbortSignal.any([closing.signal, signal]) : closing.signal, ...(onPause ? { onPause } : {}) });
  const subscribe = (listener: (event: AppEvent) => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };

  return {
    options,
    now,
    emit,
    listeners,
    nodes,
    get limits() {
      return limits;
    },
    set limits(next: HistoryLimits) {
      limits = next;
    },
    memory,
    get settings() {
      return settings;
    },
    /** The settings changed (settings.set): every window is told. */
    set settings(next: Settings) {
      settings = next;
      memory.setLimit(next.memoryBudget);
      emit({ name: 'settings', payload: { ...next } });
      rowsOnlyFleet.recount();
    },
    presets,
    rowsOnlyFleet,
    infoOf,
    publish,
    linkReported,
    recordOf,
    prompts,
    notices,
    diffJobs,
    persist,
    isRemembered,
    connect,
    disconnect,
    closeLink,
    addNode,
    addNodesSteps,
    setRecordMask,
    restore,
    openOffline,
    startDemo,
    removals,
    limitsFor,
    inSlices,
    closing: closing.signal,
    subscribe,
    podWatchers,
    /** Stops whole-node work, subscriptions, every connection and every listener. */
    async close() {
      diffJobs.close();
      memory.close();
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
