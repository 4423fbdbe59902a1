/**
 * The simulated kubelet's PodResources API on its own UNIX socket (0600): a node with 8 GPUs and 16
 * SR-IOV virtual functions over two NUMA nodes, 64 CPUs and two NUMA nodes of memory and 1 GiB hugepages.
 * Pods get devices, exclusive CPUs and pinned memory as the device, CPU and memory managers would hand
 * them out: when first seen (by a stable draw on the UID), while supplies last, freed when the pod goes.
 */
import { rm } from 'node:fs/promises';
import { Server, ServerCredentials, status as Status, type sendUnaryData, type ServerUnaryCall } from '@grpc/grpc-js';
import type { PodObject, PodTree } from '../pod/pod-tree';
import {
  podResourcesMethods,
  type AllocatableResourcesResponse,
  type ContainerDevices,
  type ContainerMemory,
  type ContainerResources,
  type GetPodResourcesRequest,
  type PodResources,
} from '../podresources/pod-resources-api';
import type { PodStore } from './pod-store';
import { listenPrivately, prepareSocketPath } from './socket-file';

export const GPU_RESOURCE = 'nvidia.com/gpu';
export const VF_RESOURCE = 'intel.com/sriov_netdevice';
const GIB = 1024 ** 3;
const numa = (id: number) => ({ nodes: [{ ID: id }] });

interface Device {
  resource: string;
  id: string;
  numa: number;
}

const DEVICES: Device[] = [
  ...Array.from({ length: 8 }, (_, i) => ({ resource: GPU_RESOURCE, id: `GPU-5f3a${i}c1e-7d2b-4a8e-9c61-0b4d2e8f${String(i).padStart(4, '0')}`, numa: i < 4 ? 0 : 1 })),
  ...Array.from({ length: 16 }, (_, i) => ({ resource: VF_RESOURCE, id: `0000:${i < 8 ? '3b' : 'af'}:02.${i % 8}`, numa: i < 8 ? 0 : 1 })),
];
/** CPUs 0-63; 0, 1, 32 and 33 are reserved for the system (--reserved-cpus), as on a tuned node. */
const RESERVED_CPUS = new Set([0, 1, 32, 33]);
const CPUS = Array.from({ length: 64 }, (_, i) => i).filter((c) => !RESERVED_CPUS.has(c));
const cpuNuma = (cpu: number) => (cpu % 32 < 16 ? 0 : 1);

interface Assignment {
  container: string;
  devices: Device[];
  cpus: number[];
  memory: ContainerMemory[];
}

function draw(uid: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < uid.length; i++) h = Math.imul(h ^ uid.charCodeAt(i), 0x01000193);
  return (h >>> 0) / 2 ** 32;
}

const meta = (pod: PodTree) => pod.metadata as PodObject;
const containerNames = (pod: PodTree) => (((pod.spec as PodObject | undefined)?.containers ?? []) as PodObject[]).map((c) => String(c.name));

/** Hands out and frees the node's resources. */
export class ResourceLedger {
  /** null: seen, and given nothing (as admitted then); a pod is only ever assigned when first seen. */
  private readonly byUid = new Map<string, Assignment | null>();

  /** Brings the assignments up to the pods now on the node and returns them by UID. */
  sync(pods: readonly PodTree[]): ReadonlyMap<string, Assignment> {
    const live = new Set(pods.map((p) => String(meta(p).uid)));
    for (const uid of this.byUid.keys()) if (!live.has(uid)) this.byUid.delete(uid);
    for (const pod of pods) {
      const uid = String(meta(pod).uid);
      if (this.byUid.has(uid)) continue;
      const first = containerNames(pod)[0];
      const phase = (pod.status as PodObject | undefined)?.phase;
      this.byUid.set(uid, first && phase !== 'Succeeded' && phase !== 'Failed' ? (this.assign(draw(uid), first) ?? null) : null);
    }
    const held = new Map<string, Assignment>();
    for (const [uid, a] of this.byUid) if (a) held.set(uid, a);
    return held;
  }

  private taken() {
    const devices = new Set<string>();
    const cpus = new Set<number>();
    /** Bytes pinned by `type/NUMA node`. */
    const memory = new Map<string, number>();
    for (const a of this.byUid.values()) {
      if (!a) continue;
      a.devices.forEach((d) => devices.add(d.id));
      a.cpus.forEach((c) => cpus.add(c));
      for (const m of a.memory) memory.set(memoryKey(m), (memory.get(memoryKey(m)) ?? 0) + m.size);
    }
    return { devices, cpus, memory };
  }

  /** Like the kubelet's memory manager: pinned memory is only handed out while the NUMA node has it left. */
  private assign(d: number, container: string): Assignment | undefined {
    const a = this.propose(d, container);
    if (!a) return undefined;
    const { memory } = this.taken();
    const fits = a.memory.every((m) => (memory.get(memoryKey(m)) ?? 0) + m.size <= (NUMA_MEMORY.find((n) => memoryKey(n) === memoryKey(m))?.size ?? 0));
    return fits ? a : undefined;
  }

  private propose(d: number, container: string): Assignment | undefined {
    const taken = this.taken();
    const free = (resource: string) => DEVICES.filter((x) => x.resource === resource && !taken.devices.has(x.id));
    if (d < 0.08) {
      const gpu = free(GPU_RESOURCE)[0];
      if (!gpu) return undefined;
      // A GPU pod in the Guaranteed class also gets CPUs and memory on the GPU's NUMA node.
      const cpus = CPUS.filter((c) => !taken.cpus.has(c) && cpuNuma(c) === gpu.numa).slice(0, 4);
      return { container, devices: [gpu], cpus, memory: [{ memory_type: 'memory', size: 8 * GIB, topology: numa(gpu.numa) }] };
    }
    if (d < 0.14) {
      const vfs = free(VF_RESOURCE).slice(0, 2);
      return vfs.length === 2 ? { container, devices: vfs, cpus: [], memory: [] } : undefined;
    }
    if (d < 0.24) {
      const cpus = CPUS.filter((c) => !taken.cpus.has(c)).slice(0, 2);
      if (cpus.length < 2) return undefined;
      return { container, devices: [], cpus, memory: [{ memory_type: 'memory', size: 2 * GIB, topology: numa(cpuNuma(cpus[0]!)) }, { memory_type: 'hugepages-1Gi', size: GIB, topology: numa(cpuNuma(cpus[0]!)) }] };
    }
    return undefined;
  }
}

function devicesMessage(devices: Device[]): ContainerDevices[] {
  const byKey = new Map<string, ContainerDevices>();
  for (const d of devices) {
    const key = `${d.resource}/${d.numa}`;
    const entry = byKey.get(key) ?? { resource_name: d.resource, device_ids: [], topology: numa(d.numa) };
    entry.device_ids.push(d.id);
    byKey.set(key, entry);
  }
  return [...byKey.values()];
}

export function podResourcesOf(pod: PodTree, assignment: Assignment | undefined): PodResources {
  const m = meta(pod);
  const containers: ContainerResources[] = containerNames(pod).map((name) => {
    const a = assignment?.container === name ? assignment : undefined;
    return { name, devices: devicesMessage(a?.devices ?? []), cpu_ids: a?.cpus ?? [], memory: a?.memory ?? [], dynamic_resources: [] };
  });
  return { name: String(m.name), namespace: String(m.namespace), containers };
}

/** Per NUMA node: the memory and 1 GiB huge pages the memory manager may pin (a 64-CPU GPU server). */
const NUMA_MEMORY: ContainerMemory[] = [0, 1].flatMap((n) => [
  { memory_type: 'memory', size: 96 * GIB, topology: numa(n) },
  { memory_type: 'hugepages-1Gi', size: 16 * GIB, topology: numa(n) },
]);
const memoryKey = (m: ContainerMemory) => `${m.memory_type}/${(m.topology?.nodes ?? []).map((n) => n.ID).join(',')}`;

export function allocatable(): AllocatableResourcesResponse {
  return {
    devices: DEVICES.map((d) => ({ resource_name: d.resource, device_ids: [d.id], topology: numa(d.numa) })),
    cpu_ids: CPUS,
    memory: NUMA_MEMORY,
  };
}

export interface PodResourcesEndpoint {
  socketPath: string;
  ledger: ResourceLedger;
  stop(): Promise<void>;
}

export async function startPodResourcesEndpoint(store: PodStore, socketPath: string): Promise<PodResourcesEndpoint> {
  await prepareSocketPath(socketPath);
  const ledger = new ResourceLedger();
  const active = () => store.list();
  const server = new Server();
  server.addService(podResourcesMethods as never, {
    List: (_call: ServerUnaryCall<unknown, unknown>, done: sendUnaryData<unknown>) => {
      const pods = active();
      const assigned = ledger.sync(pods);
      done(null, { pod_resources: pods.map((p) => podResourcesOf(p, assigned.get(String(meta(p).uid)))) });
    },
    GetAllocatableResources: (_call: ServerUnaryCall<unknown, unknown>, done: sendUnaryData<unknown>) => done(null, allocatable()),
    Get: (call: ServerUnaryCall<GetPodResourcesRequest, unknown>, done: sendUnaryData<unknown>) => {
      const pods = active();
      const assigned = ledger.sync(pods);
      const { pod_name, pod_namespace } = call.request;
      const pod = pods.find((p) => meta(p).name === pod_name && meta(p).namespace === pod_namespace);
      if (!pod) return done({ code: Status.NOT_FOUND, details: `pod ${pod_name} not found in ${pod_namespace}` });
      done(null, { pod_resources: podResourcesOf(pod, assigned.get(String(meta(pod).uid))) });
    },
  });
  try {
    await listenPrivately(socketPath, (staged) =>
      new Promise<void>((resolve, reject) => server.bindAsync(`unix:${staged}`, ServerCredentials.createInsecure(), (err) => (err ? reject(err) : resolve()))),
    );
  } catch (err) {
    server.forceShutdown();
    throw err;
  }
  return {
    socketPath,
    ledger,
    stop: async () => {
      server.forceShutdown();
      await rm(socketPath, { force: true });
    },
  };
}
