/**
 * Reads what a node's kubelet says beside its pods into the contract's NodeMetrics: CPU and memory,
 * probe results and runtime against kubelet from the REST API, devices from the PodResources API.
 * Each part is read on its own, so one that fails (RBAC for /stats, a root-only socket) says why and
 * the others still show.
 */
import type { ContainerProbes, ContainerResources, NodeMetrics, PodUsage } from '../contract';
import type { KubeletRestClient } from '../kubelet-rest/kubelet-rest-client';
import type { ProbeTable } from '../kubelet-rest/probe-metrics';
import { runtimeDifference, type ListedPod } from '../kubelet-rest/runtime-difference';
import type { StatsSummary } from '../kubelet-rest/stats-summary';
import { summarizeNodeResources } from '../podresources/node-resources-summary';
import type { AllocatableResourcesResponse, PodResources } from '../podresources/pod-resources-api';
import type { PodResourcesClient } from '../podresources/pod-resources-client';

export interface MetricsSources {
  /** The REST client the pods are read through; undefined when they come from the Pods API. */
  rest?: KubeletRestClient;
  /** Why there is no REST client, shown where CPU, memory and probes would be. */
  noRest: string;
  podResources?: PodResourcesClient;
  /** Why there is no PodResources client, shown where devices would be. */
  noPodResources: string;
  /** The pods the kubelet lists now (the watch's held set), for the runtime difference. */
  listed(): Iterable<ListedPod>;
}

const unavailable = (reason: string) => ({ available: false as const, reason });
const why = (err: unknown) => (err instanceof Error ? err.message : String(err));

function usageOf(stats: StatsSummary): Extract<NodeMetrics['usage'], { available: true }> {
  const u = (x: { cpuCores?: number; memoryWorkingSetBytes?: number }) => ({
    ...(x.cpuCores !== undefined ? { cpuCores: x.cpuCores } : {}),
    ...(x.memoryWorkingSetBytes !== undefined ? { memoryBytes: x.memoryWorkingSetBytes } : {}),
  });
  const pods: Record<string, PodUsage> = {};
  for (const [uid, pod] of stats.pods) pods[uid] = { ...u(pod), containers: Object.fromEntries(pod.containers.map((c) => [c.name, u(c)])) };
  return { available: true, node: u(stats.node), pods };
}

function probesOf(table: ProbeTable): Record<string, Record<string, ContainerProbes>> {
  const pods: Record<string, Record<string, ContainerProbes>> = {};
  for (const [key, probes] of table) {
    // Keys are `uid/container`: a UID has no slash.
    const slash = key.indexOf('/');
    (pods[key.slice(0, slash)] ??= {})[key.slice(slash + 1)] = probes;
  }
  return pods;
}

const numa = (t: { nodes: { ID: number }[] } | undefined) => (t?.nodes ?? []).map((n) => n.ID);

function resourcesOf(list: PodResources[], allocatable: AllocatableResourcesResponse): Extract<NodeMetrics['resources'], { available: true }> {
  const pods: Record<string, Record<string, ContainerResources>> = {};
  for (const pod of list) {
    pods[`${pod.namespace}/${pod.name}`] = Object.fromEntries(
      pod.containers.map((c) => [
        c.name,
        {
          devices: c.devices.map((d) => ({ resource: d.resource_name, ids: d.device_ids, numaNodes: numa(d.topology) })),
          cpuIds: c.cpu_ids,
          memory: c.memory.map((m) => ({ type: m.memory_type, bytes: m.size, numaNodes: numa(m.topology) })),
        },
      ]),
    );
  }
  return { available: true, pods, node: summarizeNodeResources(list, allocatable) };
}

export async function readNodeMetrics(s: MetricsSources, now = Date.now()): Promise<NodeMetrics> {
  const { rest, podResources } = s;
  const [usage, probes, runtime, resources] = await Promise.all([
    rest ? rest.stats().then(usageOf, (err: unknown) => unavailable(why(err))) : unavailable(s.noRest),
    rest ? rest.probes().then((t) => ({ available: true as const, pods: probesOf(t) }), (err: unknown) => unavailable(why(err))) : unavailable(s.noRest),
    rest
      ? rest.runningPods().then(
          (running) => {
            const diff = runtimeDifference(running, [...s.listed()]);
            return {
              available: true as const,
              runtimeOnly: diff.runtimeOnly,
              notRunning: diff.notRunning.map((p) => ({ uid: p.uid, namespace: p.namespace, name: p.name })),
            };
          },
          (err: unknown) => unavailable(why(err)),
        )
      : unavailable(s.noRest),
    podResources
      ? Promise.all([podResources.list(), podResources.allocatable()]).then(([list, allocatable]) => resourcesOf(list, allocatable), (err: unknown) => unavailable(why(err)))
      : unavailable(s.noPodResources),
  ]);
  return { at: now, usage, probes, runtime, resources };
}
