import type { ContainerProbes, ContainerResources, NodeMetrics, PodUsage } from '../../contract/node-metrics';
import { PROBE_TYPES } from '../../contract/probe-types';
import type { PodRow } from '../../contract/pods';

/**
 * What the table and the detail show of a node's metrics for one pod. A value is a number, or the
 * reason it is not there: never a zero standing in for "not received".
 */
export type Cell<T> = { value: T } | { absent: string };

export interface PodMetricsView {
  usage: Cell<PodUsage>;
  probes: Cell<Record<string, ContainerProbes>>;
  resources: Cell<Record<string, ContainerResources>>;
}

export interface ProbeSummary {
  failed: number;
  ok: number;
  /** Probes whose last result is not known yet (counts only, or 'unknown'). */
  unknown: number;
}

const NOT_READ = 'Not read yet: CPU, memory, probes and devices are read every few seconds while the node is live.';
const UNAVAILABLE_OFFLINE = 'A file holds pods only: no CPU, memory, probes or devices.';

/** The metrics of each pod of a node, or why there are none. */
export function podMetricsLookup(metrics: NodeMetrics | null | undefined, offline: boolean): (row: Pick<PodRow, 'uid' | 'namespace' | 'name'>) => PodMetricsView {
  if (!metrics) {
    const absent = { absent: offline ? UNAVAILABLE_OFFLINE : NOT_READ };
    return () => ({ usage: absent, probes: absent, resources: absent });
  }
  const { usage, probes, resources } = metrics;
  return (row) => ({
    usage: !usage.available ? { absent: usage.reason } : usage.pods[row.uid] ? { value: usage.pods[row.uid]! } : { absent: 'The kubelet reported no usage for this pod (not running, or not sampled yet).' },
    probes: !probes.available ? { absent: probes.reason } : { value: probes.pods[row.uid] ?? {} },
    resources: !resources.available ? { absent: resources.reason } : { value: resources.pods[`${row.namespace}/${row.name}`] ?? {} },
  });
}

export function summarizeProbes(containers: Record<string, ContainerProbes>): ProbeSummary {
  const s: ProbeSummary = { failed: 0, ok: 0, unknown: 0 };
  for (const probes of Object.values(containers)) {
    for (const type of PROBE_TYPES) {
      const p = probes[type];
      if (!p) continue;
      if (p.last === 'failed') s.failed++;
      else if (p.last === 'successful') s.ok++;
      else s.unknown++;
    }
  }
  return s;
}

/** k9s's units: millicores, and MiB (GiB, with a decimal, from 1 GiB up). */
export function formatCpu(cores: number | undefined): string {
  return cores === undefined ? '—' : `${Math.round(cores * 1000)}m`;
}

export function formatBytes(bytes: number | undefined): string {
  if (bytes === undefined) return '—';
  if (bytes >= 2 ** 30) return `${(bytes / 2 ** 30).toFixed(1)}Gi`;
  if (bytes >= 2 ** 20) return `${Math.round(bytes / 2 ** 20)}Mi`;
  return `${Math.round(bytes / 2 ** 10)}Ki`;
}

export function formatProbes(s: ProbeSummary): string {
  if (s.failed + s.ok + s.unknown === 0) return 'none';
  return [s.failed && `${s.failed} failed`, s.ok && `${s.ok} ok`, s.unknown && `${s.unknown} ?`].filter(Boolean).join(' · ');
}

/** One line per container and probe, for a cell's tooltip and the detail. */
export function describeProbes(containers: Record<string, ContainerProbes>): string[] {
  return Object.entries(containers).flatMap(([name, probes]) =>
    PROBE_TYPES.flatMap((type) => {
      const p = probes[type];
      return p ? [`${name} ${type}: ${p.last ?? 'last result not known yet'} (${p.successful} ok, ${p.failed} failed${p.unknown ? `, ${p.unknown} unknown` : ''})`] : [];
    }),
  );
}
