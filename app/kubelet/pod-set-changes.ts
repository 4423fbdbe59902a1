import type { ReceivedPod } from './received-pod';

export interface PodChange {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  /** For DELETED, the pod as last held (the kubelet sends only its identity). */
  pod: ReceivedPod;
}

/** The events that turn the pod set `before` into `after` (both by UID); `same` decides what counts as unchanged. */
export function podSetChanges(before: ReadonlyMap<string, ReceivedPod>, after: ReadonlyMap<string, ReceivedPod>, same: (a: ReceivedPod, b: ReceivedPod) => boolean): PodChange[] {
  const changes: PodChange[] = [];
  for (const [uid, pod] of after) {
    const held = before.get(uid);
    if (!held) changes.push({ type: 'ADDED', pod });
    else if (!same(held, pod)) changes.push({ type: 'MODIFIED', pod });
  }
  for (const [uid, pod] of before) if (!after.has(uid)) changes.push({ type: 'DELETED', pod });
  return changes;
}
