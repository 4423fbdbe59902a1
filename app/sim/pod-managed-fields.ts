// The server-side-apply bookkeeping some generated pods carry, derived from the pod's own fields.
import type { PodObject, PodTree, PodValue } from '../pod/pod-tree';
import { podTime } from './pod-time';

/** Server-side-apply bookkeeping, as `kubectl get -o json --show-managed-fields` shows it. */
export function managedFields(pod: PodTree, createdMs: number, nowMs: number): PodValue[] {
  const meta = pod.metadata as PodObject;
  const spec = pod.spec as PodObject;
  const keys = (o: PodValue | undefined): PodObject =>
    Object.fromEntries([['.', {}], ...Object.keys((o as PodObject | undefined) ?? {}).map((k) => [`f:${k}`, {}])]);
  const byName = (items: PodValue | undefined): PodObject =>
    Object.fromEntries([['.', {}], ...((items as PodObject[] | undefined) ?? []).map((c) => [`k:{"name":"${c.name}"}`, { '.': {}, 'f:image': {}, 'f:name': {} }])]);
  const metaFields: PodObject = { 'f:labels': keys(meta.labels) };
  if (meta.generateName !== undefined) metaFields['f:generateName'] = {};
  const owners = meta.ownerReferences as PodObject[] | undefined;
  if (owners) metaFields['f:ownerReferences'] = Object.fromEntries([['.', {}], ...owners.map((o) => [`k:{"uid":"${o.uid}"}`, {}])]);
  const specFields: PodObject = { 'f:containers': byName(spec.containers), 'f:restartPolicy': {}, 'f:volumes': byName(spec.volumes) };
  const status = pod.status as PodObject;
  return [
    {
      apiVersion: 'v1',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:metadata': metaFields, 'f:spec': specFields },
      manager: meta.ownerReferences ? 'kube-controller-manager' : 'kubectl-client-side-apply',
      operation: 'Update',
      time: podTime(createdMs),
    },
    {
      apiVersion: 'v1',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:status': { 'f:conditions': {}, 'f:phase': {}, ...(status.podIP !== undefined ? { 'f:podIP': {}, 'f:podIPs': {} } : {}) } },
      manager: 'kubelet',
      operation: 'Update',
      subresource: 'status',
      time: podTime(Math.max(createdMs, nowMs - 60_000)),
    },
  ];
}
