// Pod churn at a given rate: readiness flaps, restarts, phase changes, creations and graceful
// deletions, applied to the store. The sequence of changes is fixed by the seed (and the clock), and
// a timer paced on elapsed time batches changes so high rates (thousands per second) stay exact.
import type { PodTree } from '../pod/pod-tree';
import { advancePhase, deletionDeadline, flapReadiness, markDeleting, restartContainer } from './pod-changes';
import type { PodGenerator } from './pod-generator';
import type { PodEvent, PodStore } from './pod-store';
import { Prng } from './prng';
import type { SharedTicker } from './shared-ticker';

export interface ChurnOptions {
  seed: number;
  /** Store changes per second while running (every change is one watch event). */
  perSecond: number;
  /** Makes the pods that churn creates. */
  generator: PodGenerator;
  /** Pod timestamps and deletion deadlines follow this clock (ms); tests pass a fake one. */
  clock?: () => number;
  /** Creations and deletions keep the pod count near this; default: the store's size at start. */
  targetPods?: number;
  /** How often the timer applies the changes that fell due; default 10 ms. */
  tickMs?: number;
  /** Tick on this timer, shared with other churns (a simulated fleet), instead of one of its own. */
  ticker?: SharedTicker;
}

type ChangeKind = 'flap' | 'restart' | 'phase' | 'create' | 'delete';

/** A tick applies at most this many milliseconds' worth of changes, however late it is. */
const MAX_BATCH_MS = 50;
/** Longest stall the timer catches up on; beyond it changes are skipped rather than burst out. */
const MAX_CATCH_UP_MS = 1000;

export class Churn {
  private readonly rng: Prng;
  private readonly clock: () => number;
  private readonly target: number;
  private readonly tickMs: number;
  /** Pods being deleted, by deadline, earliest first. */
  private deleting: { uid: string; at: number }[] = [];
  private rate: number;
  /** Stops the ticking, whichever timer drives it. */
  private timer: (() => void) | undefined;
  private started = false;
  private paceStart = 0;
  private pacedSoFar = 0;
  private total = 0;

  constructor(
    private readonly store: PodStore,
    private readonly options: ChurnOptions,
  ) {
    if (!(options.perSecond >= 0) || !Number.isFinite(options.perSecond)) {
      throw new RangeError(`churn rate must be a finite number of events per second >= 0, got ${options.perSecond}`);
    }
    this.rng = new Prng(options.seed);
    this.clock = options.clock ?? Date.now;
    this.rate = options.perSecond;
    this.target = options.targetPods ?? store.size;
    this.tickMs = options.tickMs ?? 10;
    // Deletions started by anyone (tests, other tools) finish like the churn's own.
    for (const pod of store.list()) this.trackDeletion(pod);
    store.subscribe((event) => {
      if (event.type !== 'DELETED') this.trackDeletion(event.pod);
    });
  }

  /** Changes applied so far. */
  get applied(): number {
    return this.total;
  }

  get perSecond(): number {
    return this.rate;
  }

  /** Whether the churn was started (it applies changes only while its rate is above 0). */
  get running(): boolean {
    return this.started;
  }

  /** Applies `count` changes now, in the seed's order, and returns their events. */
  step(count = 1): PodEvent[] {
    const events: PodEvent[] = [];
    for (let i = 0; i < count; i++) events.push(this.change());
    return events;
  }

  /** Applies changes at the rate from now on, also after a later setRate(). */
  start(): void {
    this.started = true;
    this.schedule();
  }

  stop(): void {
    this.started = false;
    this.timer?.();
    this.timer = undefined;
  }

  setRate(perSecond: number): void {
    if (!(perSecond >= 0) || !Number.isFinite(perSecond)) {
      throw new RangeError(`churn rate must be a finite number of events per second >= 0, got ${perSecond}`);
    }
    this.rate = perSecond;
    this.timer?.();
    this.timer = undefined;
    this.schedule();
  }

  private schedule(): void {
    if (!this.started || this.timer || this.rate === 0) return;
    this.resetPace();
    if (this.options.ticker) {
      this.timer = this.options.ticker.add(() => this.tick());
      return;
    }
    const timer = setInterval(() => this.tick(), this.tickMs);
    // In Node the churn alone keeps no process alive; browsers (the design preview) have no unref.
    (timer as { unref?: () => void }).unref?.();
    this.timer = () => clearInterval(timer);
  }

  private resetPace(): void {
    this.paceStart = performance.now();
    this.pacedSoFar = 0;
  }

  private tick(): void {
    const elapsed = performance.now() - this.paceStart;
    let due = Math.floor((elapsed * this.rate) / 1000) - this.pacedSoFar;
    // At least one change may be due, or a rate below one a second would count every change as a stall.
    if (due > Math.max(1, (this.rate * MAX_CATCH_UP_MS) / 1000)) {
      // The event loop stalled (debugger, suspended laptop): restart pacing instead of a burst.
      this.resetPace();
      due = 0;
    }
    if (due <= 0) return;
    // After a late tick, catch up over the next ticks rather than in one burst: watchers get a turn
    // of the event loop between batches, as they would between a real kubelet's status updates.
    const batch = Math.min(due, Math.max(1, Math.ceil((this.rate * MAX_BATCH_MS) / 1000)));
    this.pacedSoFar += batch;
    this.step(batch);
  }

  private change(): PodEvent {
    const now = this.clock();
    this.total++;
    const finished = this.nextFinishedDeletion(now);
    if (finished) return this.store.apply({ op: 'delete', uid: finished });
    const size = this.store.size;
    // Pods on their way out do not count, or creations would outpace deletions during grace periods.
    const staying = Math.max(1, size - this.deleting.length);
    const kind = this.rng.weighted<ChangeKind>({
      flap: 40,
      restart: 12,
      phase: 12,
      create: 14 * Math.min(4, this.target / staying),
      delete: 14 * Math.min(4, staying / Math.max(1, this.target)),
    });
    if (kind !== 'create' && size > 0) {
      // Not every pod can take every change (a Pending pod has no readiness to flap): try a few,
      // then fall back to a flap, so the mix of changes stays as weighted.
      for (const attempt of [kind, 'flap'] as const) {
        for (let tries = 0; tries < 20; tries++) {
          const uids = this.store.uids();
          const pod = this.store.get(uids[this.rng.int(0, uids.length - 1)]!)!;
          const changed = this.changed(attempt, pod, now);
          if (changed) return this.store.apply({ op: 'update', pod: changed });
        }
      }
    }
    return this.store.apply({ op: 'add', pod: this.options.generator.fresh(now) });
  }

  private changed(kind: Exclude<ChangeKind, 'create'>, pod: PodTree, now: number): PodTree | undefined {
    switch (kind) {
      case 'flap':
        return flapReadiness(pod, this.rng, now);
      case 'restart':
        return restartContainer(pod, this.rng, now);
      case 'phase':
        return advancePhase(pod, this.rng, now, (hostNetwork) => this.options.generator.allocatePodIPs(hostNetwork));
      case 'delete':
        return markDeleting(pod, this.rng, now);
    }
  }

  private trackDeletion(pod: PodTree): void {
    const at = deletionDeadline(pod);
    if (at === undefined) return;
    const uid = (pod.metadata as { uid: string }).uid;
    if (this.deleting.some((d) => d.uid === uid)) return;
    const i = this.deleting.findIndex((d) => d.at > at);
    this.deleting.splice(i < 0 ? this.deleting.length : i, 0, { uid, at });
  }

  /** The next pod whose grace period is over and is still in the store, removed from the queue. */
  private nextFinishedDeletion(now: number): string | undefined {
    while (this.deleting.length > 0 && this.deleting[0]!.at <= now) {
      const { uid } = this.deleting.shift()!;
      if (this.store.get(uid)) return uid;
    }
    return undefined;
  }
}
