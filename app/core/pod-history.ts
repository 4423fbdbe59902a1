import type { PodTree } from '../pod/pod-tree';
import { DEFAULT_CRASH_LOG_BOUNDS, type CrashLog } from '../recording/crash-log';
import { isPodBytes, sameStored, type StoredPod } from '../pod/stored-pod';
import { estimateBytes, shareUnchanged } from './pod-size';

/** How much pod history one source keeps. */
export interface HistoryLimits {
  /** Earlier versions kept per pod (the current one is always kept besides). */
  perPod: number;
  /** Estimated bytes all earlier versions of one source may take; past it the oldest go first. */
  totalBytes: number;
  /** How long a deleted pod's history stays after its deletion. */
  deletedRetentionMs: number;
}

/**
 * Enough to look back over an incident on a busy node (100 versions of each pod, a deleted pod kept
 * an hour) in a budget a desktop app can spare per source.
 */
export const DEFAULT_HISTORY_LIMITS: HistoryLimits = { perPod: 100, totalBytes: 64 * 1024 * 1024, deletedRetentionMs: 60 * 60_000 };

/**
 * What keeping one earlier version costs besides its pod: the version record, its pod wrapper, its
 * place in the eviction queue and the kept set (measured by bench/pod-history.bench.ts).
 */
const VERSION_OVERHEAD_BYTES = 350;

/**
 * What a pod's row in the table costs beside its bytes, for the app's memory budget: about what
 * estimateBytes gives for the row of a simulated node's pod (866-1,546 bytes), its strings counted as
 * if the rows did not share them, so on the high side.
 */
const ROW_BYTES = 1200;

/**
 * The app's memory budget over every source (memory-budget.ts): told of each earlier version and kept crash
 * log as it comes, in that order, so it can drop the oldest of all sources first, and of every change in
 * what the source holds.
 */
export interface HistoryBudget {
  superseded(history: PodHistory, uid: string, version: PodVersion): void;
  crashLogKept(history: PodHistory, log: CrashLog): void;
  changed(deltaBytes: number): void;
}

/** What brought a version: a list (first list, relist after a reconnect, a file) or a watch event. */
export type VersionEvent = 'LISTED' | 'ADDED' | 'MODIFIED' | 'DELETED';

export interface PodVersion {
  /** Unique within the source, growing with time: how the UI names a version. */
  id: number;
  /** When it arrived (epoch ms). */
  time: number;
  event: VersionEvent;
  /** As received: a node's pod as its bytes (decoded when looked at), a file's as its tree. */
  pod: StoredPod;
  /** Estimated bytes it costs beyond what its successor shares with it; 0 while it is the current version. */
  bytes: number;
}

interface PodRecord {
  versions: PodVersion[];
  /** Earlier versions dropped to stay within the limits. */
  trimmed: number;
  /** Of those, how many went for the app's memory budget. */
  trimmedForBudget?: number;
  deletedAt: number | null;
  /** Estimated bytes of the newest version, so its cost is known once a newer one shares with it. */
  newestBytes: number;
  /** The end of the log of each of its container instances that ended while watched, oldest first. */
  crashLogs?: CrashLog[];
}

/** What the kept crash logs of one source may hold at most: as much as a recording keeps by default. */
const CRASH_LOG_BUDGET = { lines: DEFAULT_CRASH_LOG_BOUNDS.totalLines, bytes: DEFAULT_CRASH_LOG_BOUNDS.totalBytes };

/**
 * Every pod's versions of one source, oldest first, each with its arrival time and event. Bounded by
 * HistoryLimits: the current version of a pod is never dropped (the pod set holds it anyway); earlier
 * ones go per pod past `perPod`, and across the source oldest first past `totalBytes`. A node's
 * versions are their wire bytes (a few KB each); consecutive versions of a file's pods, which are
 * trees, share unchanged subtrees, so a status update costs about what changed.
 */
export class PodHistory {
  private readonly pods = new Map<string, PodRecord>();
  /** Earlier versions in arrival order (so oldest first), for the memory budget; dropped ones are skipped. */
  private queue: { uid: string; version: PodVersion }[] = [];
  private queueHead = 0;
  /** The earlier versions still kept. */
  private readonly kept = new Set<PodVersion>();
  /** Deleted pods in deletion order, for their retention. */
  private deleted: { uid: string; at: number }[] = [];
  private total = 0;
  private nextId = 1;
  /** Crash logs in arrival order, for their budget; dropped ones (their pod's history expired) are skipped. */
  private crashQueue: { uid: string; log: CrashLog }[] = [];
  private readonly crashKept = new Set<CrashLog>();
  private crashLines = 0;
  private crashBytes = 0;
  /** Estimated bytes of every pod's newest version (the current pods, and deleted ones kept). */
  private newestTotal = 0;
  /** What the budget was last told this source holds. */
  private reported = 0;
  /** Rows the source shows of pods it keeps no versions of (a rows-only node's), counted at a row's cost. */
  private rowsWithoutVersions = 0;
  /** Some version was dropped to stay within the limits since the source started. */
  trimmedAny = false;

  constructor(
    private limits: HistoryLimits = DEFAULT_HISTORY_LIMITS,
    private readonly now: () => number = Date.now,
    private readonly budget?: HistoryBudget,
  ) {}

  get bytes(): number {
    return this.total;
  }

  /** Estimated bytes the source holds of pods: every pod's newest version and row, its earlier versions, its kept crash logs. */
  get heldBytes(): number {
    return this.newestTotal + (this.pods.size + this.rowsWithoutVersions) * ROW_BYTES + this.total + this.crashBytes;
  }

  /** The source shows `count` rows whose pods it keeps no version of: the budget counts them too. */
  holdRowsOnly(count: number): void {
    if (count === this.rowsWithoutVersions) return;
    this.rowsWithoutVersions = count;
    this.report();
  }

  setLimits(limits: HistoryLimits): void {
    this.limits = limits;
    for (const [uid, record] of this.pods) this.trimPod(uid, record);
    this.enforce();
    this.report();
  }

  getLimits(): HistoryLimits {
    return { ...this.limits };
  }

  /** A new version of a pod arrived. A pod that comes back after a deletion (same UID) continues its history. */
  record(uid: string, event: VersionEvent, pod: StoredPod, time = this.now()): PodVersion {
    this.sweep(time);
    let record = this.pods.get(uid);
    const previous = record?.versions.at(-1);
    const relisted = event === 'LISTED' && previous !== undefined && previous.event !== 'DELETED';
    // Bytes are kept as they are, without what their holder keeps beside them (a row, an identity).
    let stored: StoredPod = isPodBytes(pod) ? { bytes: pod.bytes, ...(pod.mask ? { mask: pod.mask } : {}) } : pod;
    // A relist brings every pod again: one that did not change is no new version. After a reconnect
    // its bytes are a new copy, which the pod set holds: the version takes them, so one copy is kept.
    if (relisted && sameStored(previous.pod, pod)) {
      // Kept as it is when it holds these very bytes already (NodeLinkRequest.heldBytes): a catching-up
      // node relists every few seconds, and each replaced wrapper would be old garbage.
      if (isPodBytes(stored) && !(isPodBytes(previous.pod) && previous.pod.bytes === stored.bytes)) previous.pod = stored;
      return previous;
    }
    if (record && previous) {
      // A deletion reports the pod as last held: the very bytes of the version before, which cost nothing more.
      let shared = isPodBytes(stored) && isPodBytes(previous.pod) && stored.bytes === previous.pod.bytes ? record.newestBytes : 0;
      if (!isPodBytes(stored) && !isPodBytes(previous.pod)) {
        const sharing = shareUnchanged(previous.pod.pod, stored.pod);
        if (relisted && sharing.value === previous.pod.pod) return previous;
        stored = { ...stored, pod: sharing.value as PodTree };
        shared = sharing.shared;
      }
      previous.bytes = Math.max(0, record.newestBytes - shared) + VERSION_OVERHEAD_BYTES;
      this.total += previous.bytes;
      this.kept.add(previous);
      this.queue.push({ uid, version: previous });
      this.budget?.superseded(this, uid, previous);
    }
    const version: PodVersion = { id: this.nextId++, time, event, pod: stored, bytes: 0 };
    // Exact-size arrays (concat, not push or spread, which grow an array by 16 slots at least: ~130 bytes for each of 30,000 pods
    // that mostly have one or two versions); copying at most perPod + 1 entries per version costs little.
    if (record) record.versions = record.versions.concat([version]);
    else this.pods.set(uid, (record = { versions: [version], trimmed: 0, deletedAt: null, newestBytes: 0 }));
    this.newestTotal -= record.newestBytes;
    record.newestBytes = isPodBytes(stored) ? stored.bytes.byteLength : estimateBytes(stored.pod);
    this.newestTotal += record.newestBytes;
    record.deletedAt = event === 'DELETED' ? time : null;
    if (event === 'DELETED') this.deleted.push({ uid, at: time });
    this.trimPod(uid, record);
    this.enforce();
    this.report();
    return version;
  }

  /** The pod's versions, oldest first; empty when it has none (never seen, or its history expired). */
  versions(uid: string): readonly PodVersion[] {
    this.sweep(this.now());
    return this.pods.get(uid)?.versions ?? [];
  }

  /** The bytes of the pod's latest version, when it is a node's pod (kept as bytes); undefined otherwise. */
  latestBytes(uid: string): Uint8Array | undefined {
    const latest = this.pods.get(uid)?.versions.at(-1)?.pod;
    return latest && isPodBytes(latest) ? latest.bytes : undefined;
  }

  /**
   * The end of an ended instance's log (app/recording/crash-log-capture.ts), kept with its pod's history and
   * dropped with it; past the budget the oldest captures of the source go first. False when the pod has no
   * history to keep it in (expired meanwhile).
   */
  keepCrashLog(log: CrashLog): boolean {
    const record = this.pods.get(log.uid);
    if (!record) return false;
    (record.crashLogs ??= []).push(log);
    this.crashKept.add(log);
    this.crashQueue.push({ uid: log.uid, log });
    this.crashLines += log.lines;
    this.crashBytes += log.records?.length ?? 0;
    while ((this.crashLines > CRASH_LOG_BUDGET.lines || this.crashBytes > CRASH_LOG_BUDGET.bytes) && this.crashQueue.length > 1) {
      const oldest = this.crashQueue.shift()!;
      if (!this.crashKept.has(oldest.log)) continue;
      // A pod's captures are queued in its own order, so this one is its oldest.
      this.pods.get(oldest.uid)?.crashLogs?.shift();
      this.dropCrashLog(oldest.log);
    }
    this.budget?.crashLogKept(this, log);
    this.report();
    return true;
  }

  /**
   * Drops this earlier version for the app's memory budget, when it is still kept (it is then its pod's
   * oldest: the budget is told of a pod's versions in their order). False when it went already.
   */
  dropForBudget(uid: string, version: PodVersion): boolean {
    const record = this.pods.get(uid);
    if (!record || !this.kept.has(version) || record.versions[0] !== version) return false;
    record.versions.shift();
    this.drop(version);
    record.trimmed += 1;
    record.trimmedForBudget = (record.trimmedForBudget ?? 0) + 1;
    this.trimmedAny = true;
    this.report();
    return true;
  }

  /** Whether this earlier version or crash log is still kept (the budget's queues let go of those that are not). */
  keeps(item: PodVersion | CrashLog): boolean {
    return 'event' in item ? this.kept.has(item) : this.crashKept.has(item);
  }

  /** Drops this kept crash log for the app's memory budget; false when it went already. */
  dropCrashLogForBudget(log: CrashLog): boolean {
    const logs = this.pods.get(log.uid)?.crashLogs;
    const at = logs?.indexOf(log) ?? -1;
    if (!this.crashKept.has(log) || at < 0) return false;
    logs!.splice(at, 1);
    this.dropCrashLog(log);
    this.report();
    return true;
  }

  /** The pod's kept crash logs, oldest first. */
  crashLogs(uid: string): readonly CrashLog[] {
    return this.pods.get(uid)?.crashLogs ?? [];
  }

  /** Every kept crash log of the source. */
  allCrashLogs(): CrashLog[] {
    return [...this.pods.values()].flatMap((r) => r.crashLogs ?? []);
  }

  /** How many of the pod's earlier versions were dropped to stay within the limits. */
  trimmed(uid: string): number {
    return this.pods.get(uid)?.trimmed ?? 0;
  }

  /** How many of those went for the app's memory budget. */
  trimmedForBudget(uid: string): number {
    return this.pods.get(uid)?.trimmedForBudget ?? 0;
  }

  version(uid: string, id: number): PodVersion | undefined {
    return this.versions(uid).find((v) => v.id === id);
  }

  /** Pods whose last version is not a deletion: those a relist must still bring. */
  presentUids(): string[] {
    const uids: string[] = [];
    for (const [uid, record] of this.pods) if (record.deletedAt === null) uids.push(uid);
    return uids;
  }

  /** Pods whose history is kept after they were deleted. */
  deletedUids(): string[] {
    this.sweep(this.now());
    return [...this.pods].filter(([, r]) => r.deletedAt !== null).map(([uid]) => uid);
  }

  clear(): void {
    this.pods.clear();
    this.queue = [];
    this.queueHead = 0;
    this.kept.clear();
    this.deleted = [];
    this.total = 0;
    this.crashQueue = [];
    this.crashKept.clear();
    this.crashLines = 0;
    this.crashBytes = 0;
    this.newestTotal = 0;
    this.rowsWithoutVersions = 0;
    this.report();
  }

  /** Drops the history of pods deleted longer ago than the retention. */
  sweep(now: number): void {
    const cutoff = now - this.limits.deletedRetentionMs;
    let expired = false;
    while (this.deleted.length > 0 && this.deleted[0]!.at <= cutoff) {
      const { uid, at } = this.deleted.shift()!;
      const record = this.pods.get(uid);
      // Only if it is still deleted since then (it may have come back, or been deleted again later).
      if (record && record.deletedAt === at) {
        for (const v of record.versions) this.drop(v);
        for (const log of record.crashLogs ?? []) this.dropCrashLog(log);
        this.newestTotal -= record.newestBytes;
        this.pods.delete(uid);
        expired = true;
        if (this.crashQueue.length > 2 * this.crashKept.size + 64) this.crashQueue = this.crashQueue.filter((q) => this.crashKept.has(q.log));
      }
    }
    if (expired) this.report();
  }

  private trimPod(uid: string, record: PodRecord): void {
    const excess = record.versions.length - 1 - this.limits.perPod;
    if (excess <= 0) return;
    for (const dropped of record.versions.splice(0, excess)) this.drop(dropped);
    record.trimmed += excess;
    this.trimmedAny = true;
  }

  private dropCrashLog(log: CrashLog): void {
    if (!this.crashKept.delete(log)) return;
    this.crashLines -= log.lines;
    this.crashBytes -= log.records?.length ?? 0;
  }

  /** Tells the budget what changed in what the source holds. */
  private report(): void {
    const held = this.heldBytes;
    if (held === this.reported) return;
    const delta = held - this.reported;
    this.reported = held;
    this.budget?.changed(delta);
  }

  private drop(version: PodVersion): void {
    if (this.kept.delete(version)) this.total -= version.bytes;
  }

  /** Drops the oldest earlier versions, across pods, until the total fits the budget. */
  private enforce(): void {
    while (this.total > this.limits.totalBytes && this.queueHead < this.queue.length) {
      const { uid, version } = this.queue[this.queueHead++]!;
      // Dropped already (per-pod trim, expiry).
      if (!this.kept.has(version)) continue;
      const record = this.pods.get(uid)!;
      // A pod's earlier versions are queued in its own order, so this one is its oldest.
      record.versions.shift();
      this.drop(version);
      record.trimmed += 1;
      this.trimmedAny = true;
    }
    // The queue holds dropped versions until compacted: compact once they are most of it.
    if (this.queue.length - this.queueHead > 1024 + 2 * this.kept.size) {
      this.queue = this.queue.slice(this.queueHead).filter((q) => this.kept.has(q.version));
      this.queueHead = 0;
    }
  }
}
