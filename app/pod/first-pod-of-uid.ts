/**
 * Nodescope follows pods by uid (the app, `watch`, `get`): of pods that share a uid, or have none, only the
 * first of a uid is held and each other one is named as not shown, in these words, wherever that happens (a
 * live watch, a file). `pods` and `export` print every pod and need none of this. Browser-safe.
 */

export interface PodIdentity {
  /** '' when the pod has none. */
  uid: string;
  namespace: string;
  name: string;
}

const named = (p: Pick<PodIdentity, 'namespace' | 'name'>) => `pod ${p.namespace}/${p.name}`;

export const noUidReason = (pod: PodIdentity): string => `${named(pod)} has no metadata.uid; Nodescope follows pods by uid, so it is not shown`;

export const sharedUidReason = (pod: PodIdentity, holder: PodIdentity): string =>
  holder.namespace === pod.namespace && holder.name === pod.name
    ? `${named(pod)} appears more than once with uid ${pod.uid}; only the first is shown`
    : `${named(pod)} has uid ${pod.uid}, the same as ${named(holder)}; only the first is shown`;

/** The identity of a pod tree (a file's pod): its metadata's uid, namespace and name, '' where absent. */
export function identityOf(pod: { metadata?: unknown }): PodIdentity {
  const meta = (typeof pod.metadata === 'object' && pod.metadata !== null ? pod.metadata : {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  return { uid: text(meta.uid), namespace: text(meta.namespace), name: text(meta.name) };
}

export interface FirstOfEachUid<T> {
  /** The first pod of each uid, in the order given. */
  kept: T[];
  /** Why each other pod is not shown, in the order given. */
  leftOut: string[];
}

/** Keeps the first pod of each uid; a pod without one, or with one a kept pod has, is named in `leftOut`. */
export function firstPodOfEachUid<T>(pods: readonly T[], identity: (pod: T) => PodIdentity): FirstOfEachUid<T> {
  const holders = new Map<string, PodIdentity>();
  const kept: T[] = [];
  const leftOut: string[] = [];
  for (const pod of pods) {
    const id = identity(pod);
    const holder = holders.get(id.uid);
    if (id.uid === '') leftOut.push(noUidReason(id));
    else if (holder) leftOut.push(sharedUidReason(id, holder));
    else {
      holders.set(id.uid, id);
      kept.push(pod);
    }
  }
  return { kept, leftOut };
}
