/**
 * Which pod fields each value the UI shows is computed from, so that under a field mask a value
 * whose fields were all left out is shown as "not selected" rather than as an empty or zero value.
 */
import { keepsAnyOf } from '../../mask/mask-coverage';

/** The table's columns and their source fields. */
export const ROW_FIELD_SOURCES = {
  namespace: ['metadata.namespace'],
  name: ['metadata.name'],
  status: ['status.phase', 'status.reason', 'status.containerStatuses.state', 'status.initContainerStatuses.state', 'metadata.deletionTimestamp'],
  ready: ['status.containerStatuses.ready'],
  restarts: ['status.containerStatuses.restartCount', 'status.initContainerStatuses.restartCount'],
  createdAt: ['metadata.creationTimestamp'],
  podIP: ['status.podIP'],
  node: ['spec.nodeName'],
  owner: ['metadata.ownerReferences'],
  labels: ['metadata.labels'],
  isStatic: ['metadata.annotations'],
} as const satisfies Record<string, readonly string[]>;

export type RowField = keyof typeof ROW_FIELD_SOURCES;

/** The summary's values and their source fields; container values are under `containers.`. */
export const SUMMARY_FIELD_SOURCES = {
  namespace: ['metadata.namespace'],
  name: ['metadata.name'],
  uid: ['metadata.uid'],
  phase: ['status.phase'],
  status: ROW_FIELD_SOURCES.status,
  node: ['spec.nodeName'],
  podIP: ['status.podIP'],
  hostIP: ['status.hostIP'],
  qosClass: ['status.qosClass'],
  serviceAccount: ['spec.serviceAccountName', 'spec.serviceAccount'],
  restartPolicy: ['spec.restartPolicy'],
  priorityClassName: ['spec.priorityClassName'],
  createdAt: ['metadata.creationTimestamp'],
  startedAt: ['status.startTime'],
  owner: ['metadata.ownerReferences'],
  labels: ['metadata.labels'],
  annotations: ['metadata.annotations'],
  conditions: ['status.conditions'],
  volumes: ['spec.volumes'],
  containers: ['spec.containers', 'spec.initContainers', 'spec.ephemeralContainers', 'status.containerStatuses', 'status.initContainerStatuses'],
  'containers.image': ['spec.containers.image', 'spec.initContainers.image', 'spec.ephemeralContainers.image'],
  'containers.state': ['status.containerStatuses.state', 'status.initContainerStatuses.state'],
  'containers.ready': ['status.containerStatuses.ready', 'status.initContainerStatuses.ready'],
  'containers.restarts': ['status.containerStatuses.restartCount', 'status.initContainerStatuses.restartCount'],
  'containers.probes': ['spec.containers.livenessProbe', 'spec.containers.readinessProbe', 'spec.containers.startupProbe'],
  'containers.resources': ['spec.containers.resources', 'spec.initContainers.resources'],
  'containers.ports': ['spec.containers.ports'],
} as const satisfies Record<string, readonly string[]>;

export type SummaryField = keyof typeof SUMMARY_FIELD_SOURCES;

/** The values (of `sources`) a mask with these canonical paths leaves out entirely; none without a mask. */
export function unselectedFields<K extends string>(sources: Record<K, readonly string[]>, maskPaths: readonly string[]): K[] {
  if (maskPaths.length === 0) return [];
  return (Object.keys(sources) as K[]).filter((key) => !sources[key].some((path) => keepsAnyOf(maskPaths, path)));
}

/**
 * Every field rowOfPod reads: the sources above and what kubectl's columns count with them (the containers
 * for READY's total, sidecars among the init containers, the conditions), so a holder of many pods decodes
 * only these (decodePodFields) and gets the row the whole pod gives.
 */
export const ROW_READ_PATHS = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'metadata.creationTimestamp',
  'metadata.deletionTimestamp',
  'metadata.ownerReferences',
  'metadata.labels',
  'metadata.annotations',
  'spec.nodeName',
  'spec.containers.name',
  'spec.initContainers.name',
  'spec.initContainers.restartPolicy',
  'status.phase',
  'status.reason',
  'status.podIP',
  'status.conditions.type',
  'status.conditions.status',
  'status.conditions.reason',
  ...['containerStatuses', 'initContainerStatuses'].flatMap((list) => ['name', 'ready', 'restartCount', 'started', 'state'].map((f) => `status.${list}.${f}`)),
] as const;
