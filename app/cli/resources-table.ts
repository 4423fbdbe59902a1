/** `nodescope resources` tables: containers holding something, then the node's allocatable vs taken. */
import { formatTable } from './pod-table';
import type { ContainerMemory, PodResources, TopologyInfo } from '../podresources/pod-resources-api';
import type { ResourceLine } from '../podresources/node-resources-summary';

/** `2-5,9`: CPU IDs as the kernel's cpuset lists print them. */
export function formatCpuSet(ids: readonly number[]): string {
  const sorted = [...ids].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(j > i ? `${sorted[i]}-${sorted[j]}` : String(sorted[i]));
    i = j;
  }
  return parts.join(',');
}

const numa = (t: TopologyInfo | undefined) => (t?.nodes.length ? t.nodes.map((n) => n.ID).join(',') : '-');
const GIB = 1024 ** 3;
const MIB = 1024 ** 2;
export const formatBytes = (n: number) => (n === 0 ? '0' : n % GIB === 0 ? `${n / GIB}Gi` : n % MIB === 0 ? `${n / MIB}Mi` : String(n));
const memory = (m: readonly ContainerMemory[]) => m.map((x) => `${x.memory_type}=${formatBytes(x.size)}@${numa(x.topology)}`).join(' ') || '-';

export function resourcesTables(pods: readonly PodResources[], node: readonly ResourceLine[]): string {
  const rows: string[][] = [['NAMESPACE', 'POD', 'CONTAINER', 'RESOURCE', 'DEVICE IDS', 'NUMA', 'CPUS', 'MEMORY']];
  for (const pod of [...pods].sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name))) {
    for (const c of pod.containers) {
      const cpus = formatCpuSet(c.cpu_ids) || '-';
      if (c.devices.length === 0 && c.cpu_ids.length === 0 && c.memory.length === 0) continue;
      const devices = c.devices.length ? c.devices : [undefined];
      for (const d of devices) {
        rows.push([pod.namespace, pod.name, c.name, d?.resource_name ?? '-', d?.device_ids.join(',') ?? '-', numa(d?.topology), cpus, memory(c.memory)]);
      }
    }
  }
  const held = rows.length === 1 ? 'No container holds devices, exclusive CPUs or pinned memory.' : formatTable(rows);
  const nodeRows = [['NODE RESOURCE', 'ALLOCATABLE', 'TAKEN', 'FREE']];
  for (const l of node) {
    const f = (n: number) => (l.unit === 'bytes' ? formatBytes(n) : String(n));
    nodeRows.push([l.resource, f(l.allocatable), f(l.taken), f(l.allocatable - l.taken)]);
  }
  return `${held}\n\n${formatTable(nodeRows)}`;
}
