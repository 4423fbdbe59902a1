/**
 * Which workload a pod belongs to, as an operator names it: the Deployment behind a ReplicaSet (the
 * pod-template-hash suffix stripped), the CronJob behind a Job, a static pod by its manifest name (the
 * node suffix stripped), a bare pod by its own name. The same workload on two nodes gets the same key.
 * Browser-safe.
 */
import { isStaticPod, ownerOf } from '../pod/view/pod-metadata';
import { objAt, strAt } from '../pod/view/pod-tree-access';
import type { PodTree } from '../pod/pod-tree';

export type WorkloadKind = 'DaemonSet' | 'Deployment' | 'ReplicaSet' | 'StatefulSet' | 'CronJob' | 'Job' | 'Static' | 'Pod' | (string & {});

export interface WorkloadId {
  namespace: string;
  kind: WorkloadKind;
  name: string;
}

/** One key per workload: namespace, kind and name. */
export const workloadKey = (w: WorkloadId): string => `${w.namespace}/${w.kind}/${w.name}`;

/** A CronJob names its Jobs `<cronjob>-<scheduled time in minutes>`. */
const CRONJOB_SUFFIX = /^(.+)-\d{8,}$/;

export function workloadOf(pod: PodTree): WorkloadId {
  const meta = objAt(pod.metadata);
  const namespace = strAt(meta.namespace);
  const podName = strAt(meta.name);
  const owner = ownerOf(meta);
  if (isStaticPod(meta) || owner.kind === 'Node') {
    // A mirror pod's owner is its Node, so the suffix is known even when a mask left the spec out.
    const node = owner.kind === 'Node' ? owner.name : strAt(objAt(pod.spec).nodeName);
    const name = node && podName.endsWith(`-${node}`) ? podName.slice(0, -node.length - 1) : podName;
    return { namespace, kind: 'Static', name };
  }
  if (!owner.kind) return { namespace, kind: 'Pod', name: podName };
  if (owner.kind === 'ReplicaSet') {
    const hash = objAt(meta.labels)['pod-template-hash'];
    if (typeof hash === 'string' && hash && owner.name.endsWith(`-${hash}`)) return { namespace, kind: 'Deployment', name: owner.name.slice(0, -hash.length - 1) };
    return { namespace, kind: 'ReplicaSet', name: owner.name };
  }
  if (owner.kind === 'Job') {
    const cron = CRONJOB_SUFFIX.exec(owner.name);
    if (cron) return { namespace, kind: 'CronJob', name: cron[1]! };
  }
  return { namespace, kind: owner.kind, name: owner.name };
}
