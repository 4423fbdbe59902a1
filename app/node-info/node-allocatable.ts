/**
 * The node's allocatable from the PodResources API (GetAllocatableResources), as the node panel and
 * `nodescope node` show it: the CPU ids it may pin, memory per type and NUMA nodes, devices per resource.
 * Where the kubelet listed several entries for one resource (one per device), they are counted together.
 */
import type { AllocatableResourcesResponse, TopologyInfo } from '../podresources/pod-resources-api';

export interface NodeAllocatable {
  cpuIds: number[];
  memory: { type: string; numaNodes: number[]; bytes: number }[];
  devices: { resource: string; count: number; numaNodes: number[] }[];
}

const numaOf = (t: TopologyInfo | undefined) => (t?.nodes ?? []).map((n) => n.ID);
const union = (a: number[], b: number[]) => [...new Set([...a, ...b])].sort((x, y) => x - y);

export function nodeAllocatable(r: AllocatableResourcesResponse): NodeAllocatable {
  const memory = new Map<string, NodeAllocatable['memory'][number]>();
  for (const m of r.memory) {
    const numaNodes = numaOf(m.topology).sort((x, y) => x - y);
    const key = `${m.memory_type}/${numaNodes.join(',')}`;
    const held = memory.get(key);
    if (held) held.bytes += m.size;
    else memory.set(key, { type: m.memory_type, numaNodes, bytes: m.size });
  }
  const devices = new Map<string, NodeAllocatable['devices'][number]>();
  for (const d of r.devices) {
    const held = devices.get(d.resource_name) ?? { resource: d.resource_name, count: 0, numaNodes: [] };
    held.count += d.device_ids.length;
    held.numaNodes = union(held.numaNodes, numaOf(d.topology));
    devices.set(d.resource_name, held);
  }
  return { cpuIds: [...r.cpu_ids].sort((x, y) => x - y), memory: [...memory.values()], devices: [...devices.values()] };
}

const numaText = (nodes: number[]) => (nodes.length ? ` on NUMA ${nodes.join(',')}` : '');
const gib = (bytes: number) => `${(bytes / 2 ** 30).toFixed(1)} GiB`;

/** One line each for CPUs, memory and devices: the same words in `nodescope node` and the node panel. */
export function allocatableLines(a: NodeAllocatable): { cpus: string; memory: string[]; devices: string[] } {
  return {
    cpus: `${a.cpuIds.length} CPU id${a.cpuIds.length === 1 ? '' : 's'}${a.cpuIds.length ? `: ${a.cpuIds.join(',')}` : ''}`,
    memory: a.memory.map((m) => `${m.type}${numaText(m.numaNodes)}: ${gib(m.bytes)} (${m.bytes} bytes)`),
    devices: a.devices.map((d) => `${d.resource}: ${d.count}${numaText(d.numaNodes)}`),
  };
}
