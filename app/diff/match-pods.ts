/**
 * Which pod on the left is which pod on the right, between two pod sets: first by UID; then, across
 * the API server and the kubelet, a static pod's mirror (its `kubernetes.io/config.mirror` annotation
 * holds the kubelet's UID, which the kubelet's own pod also carries as `kubernetes.io/config.hash`);
 * then by namespace/name. Each pod is matched at most once.
 */
import type { JsonValue } from './diff-values';

export interface PodRef {
  uid: string;
  namespace: string;
  name: string;
}

export type MatchedBy = 'uid' | 'mirror' | 'name';

export interface PodPair<P> {
  left: P;
  right: P;
  by: MatchedBy;
}

export interface PodMatching<P> {
  pairs: PodPair<P>[];
  /** On the right only. */
  added: P[];
  /** On the left only. */
  removed: P[];
}

const MIRROR = 'kubernetes.io/config.mirror';
const HASH = 'kubernetes.io/config.hash';

function field(value: JsonValue | undefined, key: string): JsonValue | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value[key] : undefined;
}

function text(value: JsonValue | undefined): string {
  return typeof value === 'string' ? value : '';
}

export function podRef(pod: JsonValue): PodRef {
  const meta = field(pod, 'metadata');
  return { uid: text(field(meta, 'uid')), namespace: text(field(meta, 'namespace')), name: text(field(meta, 'name')) };
}

/** The kubelet-side UIDs a pod stands for: the mirror annotation's, or the config hash of a static pod. */
function staticIds(pod: JsonValue): string[] {
  const annotations = field(field(pod, 'metadata'), 'annotations');
  return [text(field(annotations, MIRROR)), text(field(annotations, HASH))].filter((s) => s !== '');
}

/**
 * The matching as steps (a yield every pod, for runInSlices): over two 30,000-pod sets it is too long to
 * hold the event loop for. Its return value is the matching.
 */
export function* matchPodsSteps<P>(left: readonly P[], right: readonly P[], json: (pod: P) => JsonValue = (p) => p as JsonValue): Generator<void, PodMatching<P>> {
  const pairs: PodPair<P>[] = [];
  const leftDone = new Array<boolean>(left.length).fill(false);
  const rightDone = new Array<boolean>(right.length).fill(false);
  const leftRefs: PodRef[] = [];
  for (const p of left) {
    leftRefs.push(podRef(json(p)));
    yield;
  }
  const rightRefs: PodRef[] = [];
  for (const p of right) {
    rightRefs.push(podRef(json(p)));
    yield;
  }

  function* pass(by: MatchedBy, leftKeys: (i: number) => string[], rightKeys: (j: number) => string[]): Generator<void> {
    const index = new Map<string, number>();
    for (let j = 0; j < right.length; j++) {
      if (rightDone[j]) continue;
      for (const key of rightKeys(j)) if (key !== '' && !index.has(key)) index.set(key, j);
      yield;
    }
    for (let i = 0; i < left.length; i++) {
      if (leftDone[i]) continue;
      for (const key of leftKeys(i)) {
        const j = key === '' ? undefined : index.get(key);
        if (j === undefined || rightDone[j]) continue;
        pairs.push({ left: left[i]!, right: right[j]!, by });
        leftDone[i] = rightDone[j] = true;
        break;
      }
      yield;
    }
  }

  yield* pass('uid', (i) => [leftRefs[i]!.uid], (j) => [rightRefs[j]!.uid]);
  // A mirror pod on one side names the kubelet's UID of the pod on the other, in either direction.
  yield* pass('mirror', (i) => staticIds(json(left[i]!)), (j) => [rightRefs[j]!.uid]);
  yield* pass('mirror', (i) => [leftRefs[i]!.uid], (j) => staticIds(json(right[j]!)));
  const nameOf = (ref: PodRef) => (ref.name === '' ? '' : `${ref.namespace}/${ref.name}`);
  yield* pass('name', (i) => [nameOf(leftRefs[i]!)], (j) => [nameOf(rightRefs[j]!)]);

  return {
    pairs,
    added: right.filter((_, j) => !rightDone[j]),
    removed: left.filter((_, i) => !leftDone[i]),
  };
}
