/**
 * The live pod history keeps the why: on a live node, when the watch shows a container instance that ended
 * (a restart, a failed pod), the end of its log is read from the node's files through the node's link and
 * kept in the pod's history (app/core/pod-history.ts), so the History tab shows the last lines before each
 * restart and the Logs tab's "previous" still has them once the node has removed the file. Which instances
 * and how much is the flight recorder's capture (app/recording/crash-log-capture.ts), the same for both.
 * Pods are decoded only when their row's restarts, phase or status moved (a container that ends moves one
 * of them), so a busy watch costs about what it did; the ended instances are then told from the version
 * before, so nothing that ended before the node was watched is taken for new.
 */
import type { PodEventType } from '../core/core-types';
import type { NodeLogFiles } from '../core/node-link';
import { incomingUid, type IncomingPod } from '../core/node-pods';
import { containerLogs } from '../logs/container-logs';
import { decodeStored, isNotHeld } from '../pod/stored-pod';
import { DEFAULT_CRASH_LOG_BOUNDS, type CrashLog, type CrashLogBounds } from '../recording/crash-log';
import { CrashLogCapture } from '../recording/crash-log-capture';

interface NodeCaptures {
  capture: CrashLogCapture;
  /** Each pod as last seen: the very object the pod set holds, so this costs a map entry. */
  last: Map<string, IncomingPod>;
}

/** A container ending moves the row's restarts, phase or status; without rows the pods are looked at each time. */
const mayHaveEnded = (before: IncomingPod, after: IncomingPod): boolean =>
  !before.row || !after.row || before.row.restarts !== after.row.restarts || before.row.phase !== after.row.phase || before.row.status !== after.row.status;

/**
 * Per capture as a recording's; in all, the pod histories keep within a recording's allowance by dropping
 * the oldest (a live node runs for days, and the newest crash says the most).
 */
export const LIVE_CRASH_LOG_BOUNDS: CrashLogBounds = { ...DEFAULT_CRASH_LOG_BOUNDS, totalLines: Number.POSITIVE_INFINITY, totalBytes: Number.POSITIVE_INFINITY };

export class LiveCrashLogs {
  private readonly nodes = new Map<string, NodeCaptures>();

  constructor(
    private readonly host: {
      /** The node's log files through its live link; undefined while it has none. */
      logFiles(nodeId: string): Promise<NodeLogFiles | undefined>;
      /** Keeps a capture in its pod's history. */
      keep(nodeId: string, log: CrashLog): void;
      now(): number;
    },
    private readonly bounds: CrashLogBounds = LIVE_CRASH_LOG_BOUNDS,
  ) {}

  /** A live node's pods changed (RESET: its pod set is exactly these now). */
  podEvent(nodeId: string, type: PodEventType | 'RESET', pods: IncomingPod[]): void {
    if (this.bounds.lines <= 0) return;
    const node = this.nodeOf(nodeId);
    if (type === 'DELETED') {
      for (const pod of pods) this.forget(node, incomingUid(pod));
      return;
    }
    const listed = type === 'RESET' ? new Set<string>() : undefined;
    for (const pod of pods) {
      const uid = incomingUid(pod);
      // A rows-only node keeps no pod history to keep the logs in, nor the pods to tell what ended.
      if (!uid || isNotHeld(pod)) continue;
      listed?.add(uid);
      const before = node.last.get(uid);
      node.last.set(uid, pod);
      // A pod first seen: what ended before is not news (its previous instance is still on the node).
      if (!before || isNotHeld(before) || !mayHaveEnded(before, pod)) continue;
      node.capture.baseline(decodeStored(before).pod);
      node.capture.seen(decodeStored(pod).pod);
    }
    if (listed) for (const uid of [...node.last.keys()]) if (!listed.has(uid)) this.forget(node, uid);
  }

  /** The node was removed: nothing more is kept of it. */
  removed(nodeId: string): void {
    this.nodes.delete(nodeId);
  }

  private nodeOf(nodeId: string): NodeCaptures {
    let node = this.nodes.get(nodeId);
    if (!node) {
      const capture = new CrashLogCapture(
        async () => {
          const files = await this.host.logFiles(nodeId);
          return files && { logs: containerLogs(files.access), logsDir: files.logsDir };
        },
        this.bounds,
        (log) => this.host.keep(nodeId, { ...log, time: this.host.now() }),
      );
      this.nodes.set(nodeId, (node = { capture, last: new Map() }));
    }
    return node;
  }

  private forget(node: NodeCaptures, uid: string | undefined): void {
    if (!uid) return;
    node.last.delete(uid);
    node.capture.forget(uid);
  }
}
