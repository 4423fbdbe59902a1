import {
  ContractError,
  DIFF_LINES_MAX,
  type DiffEntry,
  type DiffResult,
  type DiffSideInfo,
  type CallContext,
  type JobProgress,
} from '../contract';
import { podRowFromTree } from '../pod/view/pod-row-from-tree';
import { diffPodSetsInSlices, shownChanges, type PodSetDiff } from '../diff/diff-pods';
import { changeLine } from '../diff/diff-text';
import type { JsonValue } from '../diff/diff-values';
import { podRef, type PodRef } from '../diff/match-pods';
import type { NoiseSettings } from '../diff/noise-rules';
import { exactJsonValue } from '../diff/exact-json-value';
import type { FieldMask } from '../mask/field-mask';
import { kubectlJsonText } from '../pod/kubectl-json-value';
import type { PodTree } from '../pod/pod-tree';
import { runInSlices } from '../util/time-slices';

/**
 * A pod of one side as it is compared: already shown through both sides' masks. `tree` may decode the pod
 * at each read (a live node's pods are held as bytes): a finished comparison keeps its sides for
 * diff.pods, and must not keep every pod of two big nodes decoded.
 */
export interface SidePod {
  uid: string;
  readonly tree: PodTree;
}

export interface DiffSideInput {
  info: DiffSideInfo;
  pods: SidePod[];
  /** What both sides selected, when either has a mask: the pods are printed through it. */
  mask?: FieldMask;
}

interface Job {
  id: string;
  left: DiffSideInput;
  right: DiffSideInput;
  done: number;
  total: number;
  entries?: DiffEntry[];
  counts?: PodSetDiff['counts'];
  /** The JSON the comparison printed of its changed pods, kept for diff.pods (within PRINTED_KEEP_CHARS). */
  printed?: Map<SidePod, string>;
}

/**
 * How much of the printed JSON of changed pods a finished comparison keeps, in characters, so drilling
 * into a pair neither decodes nor prints it again; past it (thousands of changed pods) a pair is printed
 * again when drilled into, rather than every changed pod of two big nodes kept as text.
 */
const PRINTED_KEEP_CHARS = 16 * 1024 * 1024;

export interface SourceDiffJobsOptions {
  /** Longest stretch of work between two turns of the event loop, in ms. */
  budgetMs?: number;
  /** Progress at most this often, in ms. */
  progressEveryMs?: number;
  /** Finished comparisons kept per window for diff.result and diff.pods; its oldest is forgotten past it. */
  keep?: number;
}

const notFound = (jobId: string) =>
  new ContractError('not-found', `There is no comparison ${jobId} (any more).`, 'Older comparisons are forgotten, or it was closed: compare the sources again.');

/**
 * Source-against-source comparisons as jobs in the app core (a `diff.run` call): the pods are printed and
 * diffed in time-boxed slices, progress goes to the caller, and the result stays here, paged out to the UI
 * with the pods' JSON only for the pair it drills into, so no message carries two whole pod sets. A
 * finished comparison is kept for its window until it forgets it, or goes.
 */
export class SourceDiffJobs {
  private readonly jobs = new Map<string, Job>();
  private readonly byCaller = new WeakMap<AbortSignal, string[]>();
  private readonly closing = new AbortController();
  private nextId = 1;
  private readonly budgetMs: number;
  private readonly progressEveryMs: number;
  private readonly keep: number;

  constructor(options: SourceDiffJobsOptions = {}) {
    this.budgetMs = options.budgetMs ?? 12;
    this.progressEveryMs = options.progressEveryMs ?? 100;
    this.keep = options.keep ?? 3;
  }

  /** Compares the sides; answers the finished comparison's id, or rejects when cancelled or failed. */
  async run(left: DiffSideInput, right: DiffSideInput, noise: NoiseSettings, call: CallContext<JobProgress>): Promise<string> {
    const job: Job = { id: `diff-${this.nextId++}`, left, right, done: 0, total: left.pods.length + right.pods.length + Math.min(left.pods.length, right.pods.length) };
    try {
      await this.work(job, noise, AbortSignal.any([call.signal, this.closing.signal]), call.progress);
    } catch (err) {
      if (call.signal.aborted || this.closing.signal.aborted) throw err;
      throw new ContractError('failed', `The comparison failed: ${err instanceof Error ? err.message : String(err)}.`, 'Compare the sources again; if it fails again, report it with the sources compared.');
    }
    if (call.caller.aborted) return job.id;
    this.jobs.set(job.id, job);
    const own = this.byCaller.get(call.caller) ?? [];
    if (own.length === 0) {
      this.byCaller.set(call.caller, own);
      call.caller.addEventListener('abort', () => own.splice(0).forEach((id) => this.jobs.delete(id)), { once: true });
    }
    own.push(job.id);
    for (const old of own.splice(0, Math.max(0, own.length - this.keep))) this.jobs.delete(old);
    return job.id;
  }

  /** Forgets a finished comparison (its dialog closed); an unknown one is forgotten already. */
  forget(jobId: string): void {
    this.jobs.delete(jobId);
  }

  result(jobId: string, offset: number, limit: number): DiffResult {
    const job = this.finished(jobId);
    return {
      jobId,
      left: job.left.info,
      right: job.right.info,
      counts: job.counts!,
      entries: job.entries!.slice(offset, offset + limit),
      offset,
      total: job.entries!.length,
    };
  }

  /** A pair as it was compared, as kubectl prints it (managed fields too: a noise rule hides them). */
  pods(jobId: string, leftUid: string | undefined, rightUid: string | undefined) {
    const job = this.finished(jobId);
    const side = (input: DiffSideInput, uid: string | undefined) => {
      if (uid === undefined) return null;
      const pod = input.pods.find((p) => p.uid === uid);
      if (!pod) throw new ContractError('not-found', `Pod ${uid} is not in the comparison's ${input.info.label}.`, 'Pick a pod from the comparison.');
      return { label: input.info.label, json: job.printed?.get(pod) ?? kubectlJsonText(pod.tree, input.mask) };
    };
    const left = side(job.left, leftUid);
    const right = side(job.right, rightUid);
    if (!left && !right) throw new ContractError('invalid-input', 'Name the pod on at least one side (leftUid, rightUid).', 'Pick a pod from the comparison.');
    return { left, right, differentPods: leftUid !== undefined && rightUid !== undefined && leftUid !== rightUid };
  }

  /** Stops the comparisons under way and forgets the finished ones (the app core closes). */
  close(): void {
    this.closing.abort(new ContractError('cancelled', 'Nodescope is closing.'));
    this.jobs.clear();
  }

  private finished(jobId: string): Job {
    const job = this.jobs.get(jobId);
    if (!job) throw notFound(jobId);
    return job;
  }

  private async work(job: Job, noise: NoiseSettings, signal: AbortSignal, send: (progress: JobProgress) => void): Promise<void> {
    let lastSent = 0;
    const progress = (force = false) => {
      const t = performance.now();
      if (!force && t - lastSent < this.progressEveryMs) return;
      lastSent = t;
      send({ done: job.done, total: job.total });
    };
    progress(true);
    // Printing every pod is most of the work: done here in slices, so the diff's matching, which
    // reads every pod at once, finds them ready.
    const json = new Map<SidePod, JsonValue>();
    // The text too, until the diff says which pods changed: theirs is what a drill-down shows.
    const texts = new Map<SidePod, string>();
    await runInSlices(
      (function* () {
        for (const side of [job.left, job.right]) {
          for (const pod of side.pods) {
            const text = kubectlJsonText(pod.tree, side.mask);
            texts.set(pod, text);
            json.set(pod, exactJsonValue(text));
            job.done++;
            yield;
          }
        }
      })(),
      { budgetMs: this.budgetMs, signal, onPause: () => progress() },
    );
    const printed = job.done;
    const diff = await diffPodSetsInSlices(job.left.pods, job.right.pods, (p) => json.get(p)!, noise, {
      budgetMs: this.budgetMs,
      signal,
      onProgress: (done) => {
        job.done = printed + done;
        progress();
      },
    });
    // Each entry reads its pod (a live one decodes from its bytes) for the row: thousands of them are
    // too long for one block, more so with several comparisons finishing together.
    const drillable = new Set<SidePod>();
    job.entries = await runInSlices(this.entries(job, diff, json, drillable), { budgetMs: this.budgetMs, signal });
    job.printed = keptTexts(drillable, texts);
    job.counts = diff.counts;
  }

  /** The changed pods' entries; the pods they name are added to `drillable`. */
  private *entries(job: Job, diff: PodSetDiff, json: Map<SidePod, JsonValue>, drillable: Set<SidePod>): Generator<void, DiffEntry[]> {
    // The diff names pods by what their JSON says; a mask may have left the UID out of it.
    const key = (ref: PodRef) => ref.uid || `${ref.namespace}/${ref.name}`;
    const byKey = function* (pods: SidePod[]): Generator<void, Map<string, SidePod>> {
      const map = new Map<string, SidePod>();
      for (const p of pods) {
        map.set(key(podRef(json.get(p)!)), p);
        yield;
      }
      return map;
    };
    const left = yield* byKey(job.left.pods);
    const right = yield* byKey(job.right.pods);
    const entries: DiffEntry[] = [];
    for (const d of diff.pods) {
      if (d.change === 'unchanged') continue;
      const l = d.left ? left.get(key(d.left)) : undefined;
      const r = d.right ? right.get(key(d.right)) : undefined;
      const shownPod = r ?? l;
      if (!shownPod) continue;
      const lines = shownChanges(d).map(changeLine);
      if (l) drillable.add(l);
      if (r) drillable.add(r);
      entries.push({
        change: d.change,
        ...(l ? { leftUid: l.uid } : {}),
        ...(r ? { rightUid: r.uid } : {}),
        ...(d.matchedBy ? { matchedBy: d.matchedBy } : {}),
        row: { ...podRowFromTree(shownPod.tree), uid: shownPod.uid },
        changes: lines.slice(0, DIFF_LINES_MAX),
        moreChanges: Math.max(0, lines.length - DIFF_LINES_MAX),
      });
      yield;
    }
    return entries;
  }
}

/** The texts of the pods a drill-down may ask for, as many as PRINTED_KEEP_CHARS holds. */
function keptTexts(pods: Set<SidePod>, texts: Map<SidePod, string>): Map<SidePod, string> {
  const kept = new Map<SidePod, string>();
  let chars = 0;
  for (const pod of pods) {
    const text = texts.get(pod)!;
    if (chars + text.length > PRINTED_KEEP_CHARS) break;
    chars += text.length;
    kept.set(pod, text);
  }
  return kept;
}
