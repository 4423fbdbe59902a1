// The known ways the nodes of a simulated fleet differ, so a comparison (nodescope compare, the fleet
// view) has exactly these to find: `nodescope sim --nodes` and the fleet test harness both apply them.
// Every node of a fleet generates the same workloads (one seed), so any other difference is a bug.
import { workloadKey, workloadOf, type WorkloadId } from '../fleet/workload-identity';
import type { PodObject, PodTree } from '../pod/pod-tree';
import type { PodStore } from './pod-store';

export const HOTFIX_IMAGE = 'registry.example.internal/acme/hotfix:9.9.9';
export const CANARY_IMAGE = 'registry.example.internal/acme/node-agent:canary';
export const CANARY_ENV = { name: 'CANARY', value: 'true' };

export type FleetDriftKind = 'deployment-image' | 'daemonset-missing' | 'daemonset-image' | 'deployment-env';

/**
 * Which drift node `index` (1-based) of a fleet gets: node 2 runs the first Deployment with HOTFIX_IMAGE,
 * nodes 3, 53, 103, ... lack the first DaemonSet, every 10th node runs that DaemonSet with CANARY_IMAGE,
 * node 5 runs the first Deployment with CANARY_ENV added. Other nodes are as generated.
 */
export function fleetDriftOf(index: number): FleetDriftKind[] {
  const kinds: FleetDriftKind[] = [];
  if (index === 2) kinds.push('deployment-image');
  if (index % 50 === 3) kinds.push('daemonset-missing');
  if (index % 10 === 0) kinds.push('daemonset-image');
  if (index === 5) kinds.push('deployment-env');
  return kinds;
}

/** The first workload of `kind` in the store (every node of a fleet generates the same ones), if any. */
export function firstWorkloadOf(store: PodStore, kind: 'Deployment' | 'DaemonSet'): WorkloadId | undefined {
  const pod = store.list().find((p) => workloadOf(p).kind === kind);
  return pod ? workloadOf(pod) : undefined;
}

export function podsOfWorkload(store: PodStore, w: WorkloadId): PodTree[] {
  return store.list().filter((p) => workloadKey(workloadOf(p)) === workloadKey(w));
}

/** Replaces every pod of `w` by a copy whose first container `change` edited. */
function editFirstContainer(store: PodStore, w: WorkloadId, change: (container: PodObject) => void): void {
  for (const pod of podsOfWorkload(store, w)) {
    const copy = structuredClone(pod) as PodTree;
    change(((copy.spec as PodObject).containers as PodObject[])[0]!);
    store.apply({ op: 'update', pod: copy });
  }
}

/**
 * Applies one drift to a node's pods; returns the workload it concerns, or undefined when the node has
 * no workload of that kind (too few pods).
 */
export function applyFleetDrift(store: PodStore, kind: FleetDriftKind): WorkloadId | undefined {
  const w = firstWorkloadOf(store, kind.startsWith('deployment') ? 'Deployment' : 'DaemonSet');
  if (!w) return undefined;
  switch (kind) {
    case 'deployment-image':
      editFirstContainer(store, w, (c) => (c.image = HOTFIX_IMAGE));
      break;
    case 'daemonset-image':
      editFirstContainer(store, w, (c) => (c.image = CANARY_IMAGE));
      break;
    case 'deployment-env':
      editFirstContainer(store, w, (c) => (c.env = [...((c.env as PodObject[] | undefined) ?? []), { ...CANARY_ENV }]));
      break;
    case 'daemonset-missing':
      for (const pod of podsOfWorkload(store, w)) store.apply({ op: 'delete', uid: String((pod.metadata as PodObject).uid) });
      break;
  }
  return w;
}
