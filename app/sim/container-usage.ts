/**
 * What the simulated kubelet reports about its running containers besides the pods themselves: CPU and
 * memory (`/stats/summary`, the kubelet's stats/v1alpha1 Summary) and probe results (`/metrics/probes`,
 * Prometheus text). Values are a pure function of the pod, the container and the time, so they change
 * as time passes and a test can compute what any moment should show.
 */
import type { PodObject, PodTree } from '../pod/pod-tree';
import { containerStatuses } from './pod-status';

const PROBES = [
  ['livenessProbe', 'Liveness'],
  ['readinessProbe', 'Readiness'],
  ['startupProbe', 'Startup'],
] as const;

/** A stable number in [0, 1) for a string (FNV-1a), so every container has its own level of use. */
function unit(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0) / 2 ** 32;
}

const meta = (pod: PodTree) => pod.metadata as PodObject;
const specContainers = (pod: PodTree) => (((pod.spec as PodObject | undefined)?.containers ?? []) as PodObject[]);

/** Running containers with when they started (ms). */
function running(pod: PodTree): { name: string; startedMs: number; ready: boolean; restarts: number }[] {
  return containerStatuses(pod).flatMap((s) => {
    const started = ((s.state as PodObject | undefined)?.running as PodObject | undefined)?.startedAt;
    return typeof started === 'string' ? [{ name: String(s.name), startedMs: Date.parse(started), ready: s.ready === true, restarts: Number(s.restartCount ?? 0) }] : [];
  });
}

/** One container's use at `nowMs`: a level of its own plus a slow wave, never below a floor. */
export function containerUsage(uid: string, container: string, nowMs: number): { nanoCores: number; workingSetBytes: number } {
  const u = unit(`${uid}/${container}`);
  const wave = Math.sin(nowMs / 7000 + u * 20);
  const milli = Math.max(1, Math.round(5 + u * 400 + wave * (20 + u * 80)));
  const mib = Math.max(4, Math.round(16 + u * 480 + wave * 8));
  return { nanoCores: milli * 1_000_000, workingSetBytes: mib * 1024 * 1024 };
}

const rfc3339 = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');

function cpuStats(nanoCores: number, sinceMs: number, nowMs: number) {
  return { time: rfc3339(nowMs), usageNanoCores: nanoCores, usageCoreNanoSeconds: Math.round((nanoCores * Math.max(0, nowMs - sinceMs)) / 1000) };
}

function memoryStats(workingSetBytes: number, nowMs: number) {
  return {
    time: rfc3339(nowMs),
    usageBytes: workingSetBytes + 4 * 1024 * 1024,
    workingSetBytes,
    rssBytes: Math.round(workingSetBytes * 0.8),
    pageFaults: Math.round(workingSetBytes / 4096),
    majorPageFaults: 0,
  };
}

/** The kubelet's `/stats/summary` for these pods: running containers only, pods summed from them. */
export function statsSummary(pods: readonly PodTree[], nodeName: string, nodeStartMs: number, nowMs: number): object {
  let nodeCores = 0;
  let nodeBytes = 0;
  const podStats = pods.flatMap((pod) => {
    const m = meta(pod);
    const uid = String(m.uid);
    const containers = running(pod).map((c) => {
      const use = containerUsage(uid, c.name, nowMs);
      return { name: c.name, startTime: rfc3339(c.startedMs), cpu: cpuStats(use.nanoCores, c.startedMs, nowMs), memory: memoryStats(use.workingSetBytes, nowMs) };
    });
    if (containers.length === 0) return [];
    const cores = containers.reduce((a, c) => a + c.cpu.usageNanoCores, 0);
    const bytes = containers.reduce((a, c) => a + c.memory.workingSetBytes, 0);
    nodeCores += cores;
    nodeBytes += bytes;
    const startTime = (pod.status as PodObject | undefined)?.startTime;
    const startMs = typeof startTime === 'string' ? Date.parse(startTime) : nowMs;
    return [{
      podRef: { name: m.name, namespace: m.namespace, uid },
      startTime: rfc3339(startMs),
      containers,
      cpu: cpuStats(cores, startMs, nowMs),
      memory: memoryStats(bytes, nowMs),
    }];
  });
  const system = 300 * 1024 * 1024;
  return {
    node: {
      nodeName,
      startTime: rfc3339(nodeStartMs),
      cpu: cpuStats(nodeCores + 50_000_000, nodeStartMs, nowMs),
      memory: { ...memoryStats(nodeBytes + system, nowMs), availableBytes: Math.max(0, 64 * 1024 ** 3 - nodeBytes - system) },
    },
    pods: podStats,
  };
}

export interface ProbeCounts {
  successful: number;
  failed: number;
}

/**
 * How often a probe ran and failed by `nowMs`: once a period from the container's start (after the
 * initial delay), counted from `sinceMs` (the kubelet's start: its counters begin at zero). A container that is not ready fails its readiness probe; each restart cost
 * failureThreshold liveness failures.
 */
export function probeCounts(probe: PodObject, kind: 'Liveness' | 'Readiness' | 'Startup', c: { startedMs: number; ready: boolean; restarts: number }, sinceMs: number, nowMs: number): ProbeCounts {
  const period = Number(probe.periodSeconds ?? 10) * 1000;
  const first = Math.max(c.startedMs + Number(probe.initialDelaySeconds ?? 0) * 1000, sinceMs);
  const total = Math.max(0, Math.floor((nowMs - first) / period) + 1);
  const threshold = Number(probe.failureThreshold ?? 3);
  let failed = 0;
  if (kind === 'Readiness' && !c.ready) failed = total;
  else if (kind === 'Liveness') failed = Math.min(total, c.restarts * threshold);
  else if (kind === 'Startup') return { successful: Math.min(total, 1), failed: 0 };
  return { successful: total - failed, failed };
}

const label = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/** The kubelet's `/metrics/probes`: prober_probe_total per container, probe type and result. */
export function probeMetrics(pods: readonly PodTree[], kubeletStartMs: number, nowMs: number): string {
  const lines = [
    '# HELP prober_probe_total [ALPHA] Cumulative number of a liveness, readiness or startup probe for a container by result.',
    '# TYPE prober_probe_total counter',
  ];
  for (const pod of pods) {
    const m = meta(pod);
    const specs = new Map(specContainers(pod).map((c) => [String(c.name), c]));
    for (const c of running(pod)) {
      const spec = specs.get(c.name);
      if (!spec) continue;
      for (const [field, kind] of PROBES) {
        const probe = spec[field] as PodObject | undefined;
        if (!probe) continue;
        const counts = probeCounts(probe, kind, c, kubeletStartMs, nowMs);
        const labels = `container="${label(c.name)}",namespace="${label(String(m.namespace))}",pod="${label(String(m.name))}",pod_uid="${label(String(m.uid))}",probe_type="${kind}"`;
        for (const result of ['successful', 'failed'] as const) {
          if (counts[result] > 0) lines.push(`prober_probe_total{${labels},result="${result}"} ${counts[result]}`);
        }
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

interface SummaryUsage {
  cpu: { usageCoreNanoSeconds: number };
  memory: { workingSetBytes: number };
}

/** The kubelet's `/metrics/resource` (Prometheus text), from the same numbers as `/stats/summary`. */
export function resourceMetrics(summary: ReturnType<typeof statsSummary>, nowMs: number): string {
  const s = summary as { node: SummaryUsage; pods: (SummaryUsage & { podRef: { name: string; namespace: string }; containers: (SummaryUsage & { name: string })[] })[] };
  const seconds = (u: SummaryUsage) => u.cpu.usageCoreNanoSeconds / 1e9;
  const lines = [
    '# TYPE node_cpu_usage_seconds_total counter',
    `node_cpu_usage_seconds_total ${seconds(s.node)} ${nowMs}`,
    '# TYPE node_memory_working_set_bytes gauge',
    `node_memory_working_set_bytes ${s.node.memory.workingSetBytes} ${nowMs}`,
  ];
  const pod = (p: (typeof s.pods)[number]) => `namespace="${label(p.podRef.namespace)}",pod="${label(p.podRef.name)}"`;
  lines.push('# TYPE container_cpu_usage_seconds_total counter');
  for (const p of s.pods) for (const c of p.containers) lines.push(`container_cpu_usage_seconds_total{container="${label(c.name)}",${pod(p)}} ${seconds(c)} ${nowMs}`);
  lines.push('# TYPE container_memory_working_set_bytes gauge');
  for (const p of s.pods) for (const c of p.containers) lines.push(`container_memory_working_set_bytes{container="${label(c.name)}",${pod(p)}} ${c.memory.workingSetBytes} ${nowMs}`);
  lines.push('# TYPE pod_cpu_usage_seconds_total counter');
  for (const p of s.pods) lines.push(`pod_cpu_usage_seconds_total{${pod(p)}} ${seconds(p)} ${nowMs}`);
  lines.push('# TYPE pod_memory_working_set_bytes gauge');
  for (const p of s.pods) lines.push(`pod_memory_working_set_bytes{${pod(p)}} ${p.memory.workingSetBytes} ${nowMs}`);
  return `${lines.join('\n')}\n`;
}
