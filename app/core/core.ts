import type { NodeInfo, Settings } from '../contract';
import type { FieldMask } from '../mask/field-mask';
import type { DecodedPod, PodTree } from '../pod/pod-tree';
import type { CrashLog } from '../recording/crash-log';
import type { AppEvent } from './app-event';
import type { AppNotices } from './app-notices';
import { createCoreState } from './core-state';
import type { CoreHandlers, CoreOptions, OfflineSource, RememberedNode } from './core-types';
import { diffHandlers } from './diff-handlers';
import { fleetHandlers } from './fleet-handlers';
import { historyHandlers } from './history-handlers';
import { maskHandlers } from './mask-handlers';
import { nodeHandlers } from './node-handlers';
import { noticeHandlers } from './notice-handlers';
import { podHandlers } from './pod-handlers';
import { promptHandlers } from './prompt-handlers';
import { wholePods } from './whole-pods';
import { decodeStored } from '../pod/stored-pod';

export interface Core {
  handlers: CoreHandlers;
  subscribe(listener: (event: AppEvent) => void): () => void;
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
  shownPods(nodeId: string, uids: 'all' | string[]): Promise<Iterable<PodTree> & { readonly length: number }>;
  /** The mask those pods went through, for printing exactly its fields; null for whole pods. */
  fieldMask(nodeId: string): FieldMask | null;
  /** The node's current pods as received (unmasked by the app), for a recording's start; a rows-only node's read from it. */
  currentPods(nodeId: string): Promise<DecodedPod[]>;
  /**
   * Keeps the end of an ended instance's log in its pod's history (captured on the Node side, which reads
   * the node's files), and tells the windows; nothing when the node or the pod's history is gone.
   */
  keepCrashLog(nodeId: string, log: CrashLog): void;
  /** Every crash log the node's pod histories keep. */
  crashLogs(nodeId: string): CrashLog[];
  /** The settings were changed (settings.set on the Node side, which keeps them): they apply at once. */
  applySettings(settings: Settings): void;
  /** Marks the node as being recorded to path (undefined: no longer). */
  setRecording(nodeId: string, path: string | undefined): void;
  close(): Promise<void>;
}

/**
 * The app core behind the UI, with no Node in it: the sources (nodes, files), their connection
 * states, pod sets and pod histories, and the questions for the user. What needs Node (SSH, files,
 * dialogs, nodes.json, the demo kubelet) plugs in through CoreOptions (the host, app/host/host.ts);
 * the design preview runs it over an in-memory source. Its requests are answered by one handler
 * table, each concern's part from its own file.
 */
export function createCore(options: CoreOptions): Core {
  const core = createCoreState(options);
  const { nodes, infoOf, publish, recordOf } = core;
  const handlers: CoreHandlers = {
    ...nodeHandlers(core),
    ...podHandlers(core),
    ...historyHandlers(core),
    ...maskHandlers(core),
    ...fleetHandlers(core),
    ...diffHandlers(core),
    ...noticeHandlers(core),
    ...promptHandlers(core),
  };

  return {
    handlers,
    notices: core.notices,
    restore: core.restore,
    openOffline: core.openOffline,
    node: (nodeId) => infoOf(recordOf(nodeId)),
    async shownPods(nodeId, uids) {
      const record = recordOf(nodeId);
      const pods = await wholePods(record, uids);
      return {
        length: pods.length,
        *[Symbol.iterator]() {
          for (const p of pods) yield record.pods.shown(p.pod);
        },
      };
    },
    fieldMask: (nodeId) => recordOf(nodeId).pods.fieldMask,
    currentPods: async (nodeId) => (await wholePods(recordOf(nodeId), 'all')).map((p) => decodeStored(p.pod)),
    keepCrashLog(nodeId, log) {
      if (nodes.get(nodeId)?.history.keepCrashLog(log)) core.emit({ name: 'podLogKept', payload: { nodeId, uid: log.uid } });
    },
    crashLogs: (nodeId) => nodes.get(nodeId)?.history.allCrashLogs() ?? [],
    setRecording(nodeId, path) {
      const record = nodes.get(nodeId);
      if (!record) return;
      if (path) record.info.recordingTo = path;
      else delete record.info.recordingTo;
      publish(record);
    },
    applySettings(settings) {
      core.settings = settings;
    },
    subscribe: core.subscribe,
    close: core.close,
  };
}
