/**
 * Fleet hosts whose workloads differ in known ways, for tests of the comparison: worker-2 runs the first
 * Deployment with another image, worker-3 lacks the first DaemonSet; worker-1 is as generated.
 */
import { workloadKey, workloadOf, type WorkloadId } from '../../app/fleet/workload-identity';
import type { PodObject, PodTree } from '../../app/pod/pod-tree';
import type { SimulatedKubelet } from '../../app/sim/kubelet-server';
import type { FleetHostSpec } from './fleet-harness';

export const HOTFIX_IMAGE = 'registry.example.internal/acme/hotfix:9.9.9';

/** The first workload of `kind` on a host (every host generates the same ones). */
export const firstWorkloadOf = (k: SimulatedKubelet, kind: string): WorkloadId => workloadOf(k.store.list().find((p) => workloadOf(p).kind === kind)!);
export const podsOfWorkload = (k: SimulatedKubelet, w: WorkloadId): PodTree[] => k.store.list().filter((p) => workloadKey(workloadOf(p)) === workloadKey(w));

export const DRIFTED_FLEET: FleetHostSpec[] = [
  { name: 'worker-1' },
  {
    name: 'worker-2',
    edit: (k) => {
      for (const pod of podsOfWorkload(k, firstWorkloadOf(k, 'Deployment'))) {
        const copy = structuredClone(pod) as PodTree;
        ((copy.spec as PodObject).containers as PodObject[])[0]!.image = HOTFIX_IMAGE;
        k.store.apply({ op: 'update', pod: copy });
      }
    },
  },
  { name: 'worker-3', edit: (k) => podsOfWorkload(k, firstWorkloadOf(k, 'DaemonSet')).forEach((p) => k.store.apply({ op: 'delete', uid: String((p.metadata as PodObject).uid) })) },
];
