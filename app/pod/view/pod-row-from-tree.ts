import type { PodRow } from '../../contract/pods';
import type { PodTree } from '../pod-tree';
import { kubectlColumns } from './kubectl-columns';
import { isDeleting, isStaticPod, ownerOf } from './pod-metadata';
import { objAt, strAt, stringMapAt } from './pod-tree-access';

/** The compact table row for a decoded pod. */
export function podRowFromTree(pod: PodTree): PodRow {
  const meta = objAt(pod.metadata);
  const spec = objAt(pod.spec);
  const status = objAt(pod.status);
  const columns = kubectlColumns(pod);
  const owner = ownerOf(meta);
  const created = meta.creationTimestamp;
  return {
    uid: strAt(meta.uid),
    namespace: strAt(meta.namespace),
    name: strAt(meta.name),
    phase: strAt(status.phase),
    status: columns.status,
    ready: columns.ready,
    total: columns.total,
    restarts: columns.restarts,
    createdAt: typeof created === 'string' ? created : null,
    podIP: strAt(status.podIP),
    node: strAt(spec.nodeName),
    ownerKind: owner.kind,
    ownerName: owner.name,
    isStatic: isStaticPod(meta),
    labels: stringMapAt(meta.labels),
    deleting: isDeleting(meta),
  };
}
