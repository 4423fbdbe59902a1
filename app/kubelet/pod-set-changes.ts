import type { HeldPod, ReceivedPod } from './received-pod';

export interface PodChange<W extends HeldPod = ReceivedPod> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  /** For DELETED, the pod as last held (the kubelet sends only its identity). */
  pod: W;
}

/** The events that turn the pod set `before` into `after` (both by UID); `same` decides what counts as unchanged. */
export function podSetChanges<W extends HeldPod>(before: ReadonlyMap<string, W>, after: ReadonlyMap<string, W>, same: (a: W, b: W) => boolean): PodChange<W>[] {
  const changes: PodChange<W>[] = [];
  for (const [uid, pod] of after) {
    const held = before.get(uid);
    if (!held) changes.push({ type: 'ADDED', pod });
    else if (!same(held, pod)) changes.push({ type: 'MODIFIED', pod });
  }
  for (const [uid, pod] of before) if (!after.has(uid)) changes.push({ type: 'DELETED', pod });
  return changes;
}
