/**
 * Pod against pod, and pod set against pod set: the diff engine's entry points. Works on each pod's
 * kubectl JSON (so the patch applies to what kubectl prints), in Node, in the renderer and in a worker.
 */
import { orderChanges } from './change-order';
import { diffValues, deepEqual, type JsonValue, type PatchOp, type ValueChange } from './diff-values';
import { matchPodsSteps, podRef, type MatchedBy, type PodRef } from './match-pods';
import { activeRules, compileIgnore, type NoiseRule, type NoiseSettings } from './noise-rules';
import { runAtOnce, runInSlices, type SliceOptions } from '../util/time-slices';

export type PodChangeKind = 'added' | 'removed' | 'changed' | 'unchanged';

export interface PodDiff {
  change: PodChangeKind;
  left?: PodRef;
  right?: PodRef;
  /** How the two were paired; absent for added and removed pods. */
  matchedBy?: MatchedBy;
  /** Every difference, those a noise rule hides marked with `ignoredBy`. */
  changes: ValueChange[];
  /** RFC 6902 ops turning the left pod's kubectl JSON into exactly the right one's (noise included). */
  patch: PatchOp[];
}

export interface PodSetDiff {
  pods: PodDiff[];
  counts: Record<PodChangeKind, number>;
  /** The noise rules of a comparison of the same pod, and of two different pods (name or mirror matches). */
  rules: { samePod: NoiseRule[]; differentPods: NoiseRule[] };
}

export const DEFAULT_NOISE: NoiseSettings = { defaults: true };

/** Changes people see: the ones no noise rule hides, in reading order (spec and readiness first, timestamps last). */
export const shownChanges = (diff: Pick<PodDiff, 'changes'>): ValueChange[] => orderChanges(diff.changes.filter((c) => c.ignoredBy === undefined));

/**
 * One pod against another. `differentPods` (default: the UIDs differ) turns on the rules for comparing
 * two pods rather than one pod over time.
 */
export function diffPod(left: JsonValue, right: JsonValue, noise: NoiseSettings = DEFAULT_NOISE, differentPods?: boolean): PodDiff {
  const l = podRef(left);
  const r = podRef(right);
  const different = differentPods ?? l.uid !== r.uid;
  return pairDiff(left, right, l, r, undefined, compileIgnore(activeRules(noise, different)));
}

function pairDiff(left: JsonValue, right: JsonValue, l: PodRef, r: PodRef, by: MatchedBy | undefined, ignore: ReturnType<typeof compileIgnore>): PodDiff {
  const base = { left: l, right: r, ...(by ? { matchedBy: by } : {}) };
  // Most pods of two sets are equal: a plain walk is far cheaper than the diff's bookkeeping.
  if (deepEqual(left, right)) return { change: 'unchanged', ...base, changes: [], patch: [] };
  const { changes, patch } = diffValues(left, right, ignore);
  const change = changes.some((c) => c.ignoredBy === undefined) ? 'changed' : 'unchanged';
  return { change, ...base, changes, patch };
}

/**
 * Two pod sets, step by step: pairs matched by UID, mirror annotation, then namespace/name; the rest
 * added or removed. Yields the number of pods done after each pair, so a caller can pause between
 * them (diffPodSetsInSlices) and a 30,000-pod comparison never holds its thread for long.
 */
function* podSetDiffSteps<P>(left: readonly P[], right: readonly P[], json: (pod: P) => JsonValue, noise: NoiseSettings): Generator<number, PodSetDiff> {
  const rules = { samePod: activeRules(noise, false), differentPods: activeRules(noise, true) };
  const same = compileIgnore(rules.samePod);
  const different = compileIgnore(rules.differentPods);
  const matching = matchPodsSteps(left, right, json);
  let step = matching.next();
  for (; !step.done; step = matching.next()) yield 0;
  const { pairs, added, removed } = step.value;
  const pods: PodDiff[] = [];
  for (const pair of pairs) {
    const l = json(pair.left);
    const r = json(pair.right);
    pods.push(pairDiff(l, r, podRef(l), podRef(r), pair.by, pair.by === 'uid' ? same : different));
    yield pods.length;
  }
  for (const pod of removed) pods.push({ change: 'removed', left: podRef(json(pod)), changes: [], patch: [] });
  for (const pod of added) pods.push({ change: 'added', right: podRef(json(pod)), changes: [], patch: [] });
  const order = (d: PodDiff) => d.right ?? d.left!;
  pods.sort((a, b) => {
    const x = order(a);
    const y = order(b);
    return x.namespace < y.namespace ? -1 : x.namespace > y.namespace ? 1 : x.name < y.name ? -1 : x.name > y.name ? 1 : 0;
  });
  const counts = { added: 0, removed: 0, changed: 0, unchanged: 0 };
  for (const pod of pods) counts[pod.change]++;
  return { pods, counts, rules };
}

/** Two pod sets, at once. */
export function diffPodSets<P>(left: readonly P[], right: readonly P[], json: (pod: P) => JsonValue, noise: NoiseSettings = DEFAULT_NOISE): PodSetDiff {
  return runAtOnce(podSetDiffSteps(left, right, json, noise));
}

export interface DiffSliceOptions extends Omit<SliceOptions<number>, 'onPause'> {
  /** Pairs compared so far and how many there are at most. */
  onProgress?: (done: number, total: number) => void;
}

/** Two pod sets in slices of at most `budgetMs`, giving the event loop (a UI, a server) a turn between them. */
export function diffPodSetsInSlices<P>(
  left: readonly P[],
  right: readonly P[],
  json: (pod: P) => JsonValue,
  noise: NoiseSettings = DEFAULT_NOISE,
  { onProgress, ...slices }: DiffSliceOptions = {},
): Promise<PodSetDiff> {
  const total = Math.min(left.length, right.length);
  return runInSlices(podSetDiffSteps(left, right, json, noise), { ...slices, onPause: (done) => onProgress?.(done, total) });
}
