import { formatSize } from '../contract/settings';
import type { CrashLog } from '../recording/crash-log';
import type { AppNotices } from './app-notices';
import type { HistoryBudget, PodHistory, PodVersion } from './pod-history';

/** A notice of what was dropped is raised again at most this often while drops go on (a busy fleet at its budget). */
const NOTICE_PACE_MS = 2000;

/** What went for the budget since the budget was last set. */
interface Drops {
  versions: number;
  /** Source id and pod uid of each pod that lost versions. */
  pods: Set<string>;
  sources: Set<string>;
  crashLogs: number;
}

const none = (): Drops => ({ versions: 0, pods: new Set(), sources: new Set(), crashLogs: 0 });
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * The memory budget the whole app keeps (the `memoryBudget` setting) over what every source holds of pods:
 * current pods (their bytes and rows), earlier versions, kept crash logs. Past it, earlier versions go
 * first, in the order they were superseded across all sources (the history that ended longest ago, on
 * whichever node), then kept crash logs, oldest first; current pods are never dropped. What went is said
 * in an app notice, and so is a budget the current pods alone are over, with what to do.
 */
export class MemoryBudget {
  private held = 0;
  private versions: { source: string; history: PodHistory; uid: string; version: PodVersion }[] = [];
  private versionsHead = 0;
  private crashLogs: { source: string; history: PodHistory; log: CrashLog }[] = [];
  private crashLogsHead = 0;
  /** Queue lengths after the last compaction, so compacting stays linear in what is queued. */
  private compacted = { versions: 0, crashLogs: 0 };
  private enforcing = false;
  private drops = none();
  private noticeTimer: ReturnType<typeof setTimeout> | null = null;
  private noticePending = false;
  /** The current pods alone are over the budget (and a notice says so). */
  private overByCurrent = false;

  constructor(
    private limit: number,
    private readonly notices: Pick<AppNotices, 'raise' | 'clear'>,
    /** After drops, the sources that lost something (their records say their history was trimmed). */
    private readonly trimmed: (sources: ReadonlySet<string>) => void = () => undefined,
  ) {}

  /** Estimated bytes every source holds now. */
  get heldBytes(): number {
    return this.held;
  }

  get limitBytes(): number {
    return this.limit;
  }

  /** Entries its queues hold, kept or gone already: what the queues cost beside what is held. */
  get queued(): number {
    return this.versions.length - this.versionsHead + this.crashLogs.length - this.crashLogsHead;
  }

  /** What one source's history tells the budget. */
  forSource(source: string): HistoryBudget {
    return {
      superseded: (history, uid, version) => {
        this.versions.push({ source, history, uid, version });
        this.compact();
      },
      crashLogKept: (history, log) => {
        this.crashLogs.push({ source, history, log });
        this.compact();
      },
      changed: (delta) => {
        this.held += delta;
        if (delta > 0) this.enforce();
        else if (!this.enforcing) this.checkCurrent();
      },
    };
  }

  /** A new budget applies at once; what was dropped is counted afresh against it. */
  setLimit(bytes: number): void {
    if (bytes === this.limit) return;
    this.limit = bytes;
    this.drops = none();
    this.notices.clear('memory-budget-dropped');
    // What a new budget drops is said at once.
    this.close();
    this.noticePending = false;
    this.enforce();
    this.checkCurrent();
  }

  close(): void {
    if (this.noticeTimer) clearTimeout(this.noticeTimer);
    this.noticeTimer = null;
  }

  private enforce(): void {
    if (this.enforcing || this.held <= this.limit) return;
    this.enforcing = true;
    const from = new Set<string>();
    try {
      while (this.held > this.limit && this.versionsHead < this.versions.length) {
        const { source, history, uid, version } = this.versions[this.versionsHead++]!;
        if (!history.dropForBudget(uid, version)) continue;
        this.drops.versions += 1;
        this.drops.pods.add(`${source}\n${uid}`);
        this.drops.sources.add(source);
        from.add(source);
      }
      while (this.held > this.limit && this.crashLogsHead < this.crashLogs.length) {
        const { source, history, log } = this.crashLogs[this.crashLogsHead++]!;
        if (!history.dropCrashLogForBudget(log)) continue;
        this.drops.crashLogs += 1;
        this.drops.sources.add(source);
        from.add(source);
      }
      this.compact();
    } finally {
      this.enforcing = false;
    }
    if (from.size > 0) {
      this.trimmed(from);
      this.sayDropped();
    }
    this.checkCurrent();
  }

  /**
   * The queues hold what went already (by the budget, a source's own limits, a source removed) until
   * compacted: while under budget nothing is taken from them, so they are filtered once they have doubled
   * (or once most of them was taken).
   */
  private compact(): void {
    const versions = this.versions.length - this.versionsHead;
    if (versions > 2 * this.compacted.versions + 1024 || this.versionsHead > versions + 1024) {
      this.versions = this.versions.slice(this.versionsHead).filter((q) => q.history.keeps(q.version));
      this.versionsHead = 0;
      this.compacted.versions = this.versions.length;
    }
    const crashLogs = this.crashLogs.length - this.crashLogsHead;
    if (crashLogs > 2 * this.compacted.crashLogs + 1024 || this.crashLogsHead > crashLogs + 1024) {
      this.crashLogs = this.crashLogs.slice(this.crashLogsHead).filter((q) => q.history.keeps(q.log));
      this.crashLogsHead = 0;
      this.compacted.crashLogs = this.crashLogs.length;
    }
  }

  /** Once at once, then at most every NOTICE_PACE_MS while drops go on, so a busy fleet does not send a notice per change. */
  private sayDropped(): void {
    if (this.noticeTimer) {
      this.noticePending = true;
      return;
    }
    this.raiseDropped();
    this.noticeTimer = setTimeout(() => {
      this.noticeTimer = null;
      if (!this.noticePending) return;
      this.noticePending = false;
      this.sayDropped();
    }, NOTICE_PACE_MS);
  }

  private raiseDropped(): void {
    const { versions, pods, sources, crashLogs } = this.drops;
    const what = [
      ...(versions ? [`${plural(versions, 'earlier version')} of ${plural(pods.size, 'pod')}`] : []),
      ...(crashLogs ? [plural(crashLogs, 'kept crash log')] : []),
    ].join(' and ');
    this.notices.raise(
      'memory-budget-dropped',
      `To stay within the ${formatSize(this.limit)} memory budget, Nodescope dropped ${what} on ${plural(sources.size, 'node')}, the oldest first.${versions ? " Each pod's History tab says how many of its versions went." : ''}`,
      'To keep more history, raise the memory budget in Settings (press ,).',
      'info',
    );
  }

  /** Says so when the current pods alone are over the budget: nothing more can be dropped. */
  private checkCurrent(): void {
    const over = this.held > this.limit;
    if (over === this.overByCurrent) return;
    this.overByCurrent = over;
    if (!over) return this.notices.clear('memory-budget-current');
    this.notices.raise(
      'memory-budget-current',
      `The current pods of your sources alone take about ${formatSize(this.held)}, over the ${formatSize(this.limit)} memory budget: they are all kept, with no earlier versions beside them.`,
      'Raise the memory budget in Settings (press ,), or keep only rows for large fleets.',
    );
  }
}
