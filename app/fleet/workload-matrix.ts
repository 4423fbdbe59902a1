/**
 * The comparison matrix over many sources: one row per workload (workload-identity.ts), one column per
 * source, each cell the workload's pods there (count, ready, phases, restarts), and the drift between
 * the sources (workload-drift.ts). Pure and browser-safe: the CLI and the fleet view build the same one.
 */
import { kubectlColumns } from '../contract/pod-row-from-tree';
import { objAt, strAt } from '../contract/pod-tree-access';
import type { PodTree } from '../pod/pod-tree';
import { findDrift, type Drift } from './workload-drift';
import { workloadKey, workloadOf, type WorkloadId } from './workload-identity';

/** A source's pods, or why it could not be read (its column then shows no cells, never zeros). */
export type MatrixInput = { id: string; pods: readonly PodTree[] } | { id: string; error: string };

export interface MatrixCell {
  pods: number;
  /** Pods whose every container is ready. */
  readyPods: number;
  /** Pods by phase; a pod whose phase was not received counts under ''. */
  phases: Record<string, number>;
  restarts: number;
  podNames: string[];
}

export interface MatrixRow {
  workload: WorkloadId;
  key: string;
  /** One per source, in the sources' order; null where the workload has no pod (or the source failed). */
  cells: (MatrixCell | null)[];
  drift: Drift[];
}

export interface WorkloadMatrix {
  sources: { id: string; error?: string }[];
  /** Sorted by namespace, kind, name. */
  rows: MatrixRow[];
  /** Rows with any drift. */
  drifted: number;
}

/** The pods of `rows` on one source, grouped by workload. */
function groupByWorkload(pods: readonly PodTree[]): Map<string, { workload: WorkloadId; pods: PodTree[] }> {
  const groups = new Map<string, { workload: WorkloadId; pods: PodTree[] }>();
  for (const pod of pods) {
    const workload = workloadOf(pod);
    const key = workloadKey(workload);
    const group = groups.get(key);
    if (group) group.pods.push(pod);
    else groups.set(key, { workload, pods: [pod] });
  }
  return groups;
}

function cellOf(pods: PodTree[]): MatrixCell {
  const cell: MatrixCell = { pods: pods.length, readyPods: 0, phases: {}, restarts: 0, podNames: [] };
  for (const pod of pods) {
    const columns = kubectlColumns(pod);
    if (columns.total > 0 && columns.ready === columns.total) cell.readyPods++;
    cell.restarts += columns.restarts;
    const phase = strAt(objAt(pod.status).phase);
    cell.phases[phase] = (cell.phases[phase] ?? 0) + 1;
    cell.podNames.push(strAt(objAt(pod.metadata).name));
  }
  cell.podNames.sort();
  return cell;
}

export function buildWorkloadMatrix(inputs: readonly MatrixInput[]): WorkloadMatrix {
  const perSource = inputs.map((s) => ('pods' in s ? groupByWorkload(s.pods) : null));
  const workloads = new Map<string, WorkloadId>();
  for (const groups of perSource) for (const [key, g] of groups ?? []) if (!workloads.has(key)) workloads.set(key, g.workload);
  const keys = [...workloads.keys()].sort((a, b) => {
    const x = workloads.get(a)!;
    const y = workloads.get(b)!;
    return x.namespace.localeCompare(y.namespace) || x.kind.localeCompare(y.kind) || x.name.localeCompare(y.name);
  });
  const answered = perSource.map((g) => g !== null);
  const runsStaticPods = perSource.map((g) => [...(g?.values() ?? [])].some((x) => x.workload.kind === 'Static'));
  const rows = keys.map((key): MatrixRow => {
    const workload = workloads.get(key)!;
    const podsPerSource = perSource.map((g) => g?.get(key)?.pods ?? null);
    return {
      workload,
      key,
      cells: podsPerSource.map((pods) => (pods ? cellOf(pods) : null)),
      drift: findDrift(workload, podsPerSource, {
        sources: inputs.map((s) => s.id),
        // Where a missing pod counts: every node for a DaemonSet, the control-plane nodes for a static pod.
        expected: workload.kind === 'DaemonSet' ? answered : workload.kind === 'Static' ? runsStaticPods : null,
      }),
    };
  });
  return {
    sources: inputs.map((s) => ('error' in s ? { id: s.id, error: s.error } : { id: s.id })),
    rows,
    drifted: rows.filter((r) => r.drift.length > 0).length,
  };
}
