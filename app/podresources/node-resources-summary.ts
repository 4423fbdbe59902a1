/**
 * What a node can hand out against what its pods hold, from PodResources List and
 * GetAllocatableResources: per device resource, exclusive CPUs, and memory per type and NUMA node.
 */
import type { AllocatableResourcesResponse, ContainerMemory, PodResources } from './pod-resources-api';

export interface ResourceLine {
  /** e.g. `nvidia.com/gpu`, `cpu (exclusive)`, `memory (NUMA 0)`. */
  resource: string;
  allocatable: number;
  taken: number;
  /** 'devices', 'cpus' or 'bytes'. */
  unit: 'devices' | 'cpus' | 'bytes';
}

const numaOf = (m: ContainerMemory) => (m.topology?.nodes ?? []).map((n) => n.ID).join(',') || '-';

export function summarizeNodeResources(pods: readonly PodResources[], allocatable: AllocatableResourcesResponse): ResourceLine[] {
  const lines = new Map<string, ResourceLine>();
  const line = (resource: string, unit: ResourceLine['unit']) => {
    let l = lines.get(resource);
    if (!l) lines.set(resource, (l = { resource, allocatable: 0, taken: 0, unit }));
    return l;
  };
  for (const d of allocatable.devices) line(d.resource_name, 'devices').allocatable += d.device_ids.length;
  line('cpu (exclusive)', 'cpus').allocatable += allocatable.cpu_ids.length;
  for (const m of allocatable.memory) line(`${m.memory_type} (NUMA ${numaOf(m)})`, 'bytes').allocatable += m.size;
  for (const pod of pods) {
    for (const c of pod.containers) {
      for (const d of c.devices) line(d.resource_name, 'devices').taken += d.device_ids.length;
      line('cpu (exclusive)', 'cpus').taken += c.cpu_ids.length;
      for (const m of c.memory) line(`${m.memory_type} (NUMA ${numaOf(m)})`, 'bytes').taken += m.size;
    }
  }
  return [...lines.values()];
}
