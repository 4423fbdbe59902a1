import type { PodObject } from '../pod-tree';
import { objAt, strAt } from './pod-tree-access';

// What a pod's metadata says about it: who owns it, whether it is static, whether it is being deleted.

/** The controlling owner (or the first one), as kubectl and k9s show it. */
export function ownerOf(meta: PodObject): { kind: string; name: string } {
  // A loop, no list made: this runs several times for every pod taken in.
  const owners = meta.ownerReferences;
  let owner: PodObject | undefined;
  if (Array.isArray(owners)) {
    for (const o of owners) {
      if (objAt(o).controller === true) {
        owner = objAt(o);
        break;
      }
    }
    if (owner === undefined && owners.length > 0) owner = objAt(owners[0]);
  }
  return { kind: strAt(owner?.kind), name: strAt(owner?.name) };
}

/**
 * Static pods come from files on the node: through the API server they appear as mirror pods
 * (annotation kubernetes.io/config.mirror); the kubelet itself reports their source as file/http.
 */
export function isStaticPod(meta: PodObject): boolean {
  // Read in place, not copied (stringMapAt): it runs for every pod taken in, twice (its row and its workload).
  const annotations = objAt(meta.annotations);
  const source = annotations['kubernetes.io/config.source'];
  return (Object.hasOwn(annotations, 'kubernetes.io/config.mirror') && typeof annotations['kubernetes.io/config.mirror'] === 'string') || source === 'file' || source === 'http';
}

/** A deletion timestamp is set: the pod is on its way out (kubectl prints Terminating). */
export const isDeleting = (meta: PodObject): boolean => meta.deletionTimestamp !== undefined && meta.deletionTimestamp !== null;
