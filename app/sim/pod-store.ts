// The oracle: the simulated kubelet's true current set of pods. The server serves from it, the churn
// changes it, and tests ask it what a client should be showing.
import type { PodObject, PodTree } from '../pod/pod-tree';

export type PodEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface PodEvent {
  type: PodEventType;
  uid: string;
  /** The pod after the change; for DELETED only metadata.name, namespace and uid, as the kubelet sends. */
  pod: PodTree;
  /** Store-wide change counter at this event; also the version of `pod` (see StoredPod). */
  version: number;
  /** The pod before a MODIFIED or DELETED change. */
  previous?: PodTree;
}

export interface StoredPod {
  pod: PodTree;
  /** Changes whenever the pod changes, so encodings can be cached per (uid, version). */
  version: number;
}

export type PodOperation =
  | { op: 'add'; pod: PodTree }
  | { op: 'update'; pod: PodTree }
  | { op: 'delete'; uid: string };

export class PodStoreError extends Error {
  override name = 'PodStoreError';
}

export function podUid(pod: PodTree): string {
  const uid = (pod.metadata as PodObject | undefined)?.uid;
  if (typeof uid !== 'string' || uid === '') throw new PodStoreError('pod has no metadata.uid; every pod the kubelet serves has one');
  return uid;
}

/** What the kubelet's DELETED event carries: identity only. */
export function deletedPod(pod: PodTree): PodTree {
  const meta = pod.metadata as PodObject;
  return { metadata: { name: meta.name, namespace: meta.namespace, uid: meta.uid } };
}

export class PodStore {
  private readonly pods = new Map<string, StoredPod>();
  private readonly listeners = new Set<(event: PodEvent) => void>();
  private sortedUids: string[] | null = [];
  private changeCounter = 0;

  constructor(initial: Iterable<PodTree> = []) {
    for (const pod of initial) this.apply({ op: 'add', pod });
  }

  get size(): number {
    return this.pods.size;
  }

  /** Total number of changes applied so far. */
  get version(): number {
    return this.changeCounter;
  }

  get(uid: string): PodTree | undefined {
    return this.pods.get(uid)?.pod;
  }

  entry(uid: string): StoredPod | undefined {
    return this.pods.get(uid);
  }

  /** All pods sorted by UID (byte order, as Go sorts strings). */
  list(): PodTree[] {
    return this.entries().map((e) => e.pod);
  }

  entries(): StoredPod[] {
    return this.uids().map((uid) => this.pods.get(uid)!);
  }

  /** All UIDs sorted; cached until a pod is added or removed. */
  uids(): readonly string[] {
    if (this.sortedUids === null) this.sortedUids = [...this.pods.keys()].sort(compareBytes);
    return this.sortedUids;
  }

  /**
   * Applies one change and notifies subscribers synchronously. Pods are treated as immutable: pass
   * a new object for an update, never mutate one the store holds (encodings are cached by version).
   */
  apply(operation: PodOperation): PodEvent {
    const version = ++this.changeCounter;
    let event: PodEvent;
    if (operation.op === 'delete') {
      const existing = this.pods.get(operation.uid);
      if (!existing) throw new PodStoreError(`cannot delete pod ${operation.uid}: not in the store`);
      this.pods.delete(operation.uid);
      this.sortedUids = null;
      event = { type: 'DELETED', uid: operation.uid, pod: deletedPod(existing.pod), version, previous: existing.pod };
    } else {
      const uid = podUid(operation.pod);
      const previous = this.pods.get(uid)?.pod;
      const exists = previous !== undefined;
      if (operation.op === 'add' && exists) throw new PodStoreError(`cannot add pod ${uid}: a pod with that uid exists`);
      if (operation.op === 'update' && !exists) throw new PodStoreError(`cannot update pod ${uid}: not in the store`);
      this.pods.set(uid, { pod: operation.pod, version });
      if (!exists) this.sortedUids = null;
      event = exists ? { type: 'MODIFIED', uid, pod: operation.pod, version, previous } : { type: 'ADDED', uid, pod: operation.pod, version };
    }
    for (const listener of this.listeners) listener(event);
    return event;
  }

  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe(listener: (event: PodEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

function compareBytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
