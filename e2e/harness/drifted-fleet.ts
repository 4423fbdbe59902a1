/**
 * Fleet hosts whose workloads differ in the known ways of app/sim/fleet-drift.ts (as `nodescope sim
 * --nodes 3` makes them): worker-2 runs the first Deployment with another image, worker-3 lacks the
 * first DaemonSet; worker-1 is as generated.
 */
import type { WorkloadId } from '../../app/fleet/workload-identity';
import type { PodTree } from '../../app/pod/pod-tree';
import { applyFleetDrift, fleetDriftOf, firstWorkloadOf as firstInStore, podsOfWorkload as podsInStore } from '../../app/sim/fleet-drift';
import type { SimulatedKubelet } from '../../app/sim/kubelet-server';
import type { FleetHostSpec } from './fleet-harness';

export { HOTFIX_IMAGE } from '../../app/sim/fleet-drift';

/** The first workload of `kind` on a host (every host generates the same ones). */
export const firstWorkloadOf = (k: SimulatedKubelet, kind: 'Deployment' | 'DaemonSet'): WorkloadId => firstInStore(k.store, kind)!;
export const podsOfWorkload = (k: SimulatedKubelet, w: WorkloadId): PodTree[] => podsInStore(k.store, w);

export const DRIFTED_FLEET: FleetHostSpec[] = [1, 2, 3].map((index) => ({
  name: `worker-${index}`,
  edit: (k) => fleetDriftOf(index).forEach((kind) => applyFleetDrift(k.store, kind)),
}));
