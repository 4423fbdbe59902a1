/**
 * The comparison matrix over many sources: one row per workload (workload-identity.ts), one column per
 * source, each cell the workload's pods there (count, ready, phases, restarts), and the drift between
 * the sources (workload-drift.ts). Pure and browser-safe: the CLI and the fleet view build the same one.
 * Each pod is read once into what the matrix needs of it (matrixPodOf), which the core keeps per pod as
 * received; the rest is steps (workloadMatrixSteps) the core runs in time slices.
 */
import { kubectlColumns, type KubectlColumns } from '../pod/view/kubectl-columns';
import { ROW_READ_PATHS } from '../pod/view/pod-field-sources';
import { objAt, strAt } from '../pod/view/pod-tree-access';
import type { PodTree } from '../pod/pod-tree';
import { SharedValues } from '../util/shared-values';
import { runAtOnce } from '../util/time-slices';
import { CONTAINER_READ_PATHS, containerAspects, findDrift, type ContainerAspects, type Drift } from './workload-drift';
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

/** What the matrix reads of one pod. */
export interface MatrixPod {
  workload: WorkloadId;
  key: string;
  name: string;
  /** '' when the phase was not received. */
  phase: string;
  /** Every container ready (and there is one). */
  ready: boolean;
  restarts: number;
  containers: ContainerAspects;
}

/**
 * Every field matrixPodOf reads: the row's (its workload, phase, READY and RESTARTS are read from the same
 * fields) and each container's aspects drift compares (containerAspects).
 */
export const MATRIX_READ_PATHS = [...ROW_READ_PATHS, ...CONTAINER_READ_PATHS] as const;

/** A source's pods as the matrix reads them, or why it could not be read. */
export type MatrixSource = { id: string; pods: readonly MatrixPod[] } | { id: string; error: string };

/**
 * One object for equal containers, held once per template rather than per pod: a fleet's pods are mostly
 * replicas, each a Map and objects.
 */
export function sharedContainers(aspects: ContainerAspects, shared: SharedValues): ContainerAspects {
  // JSON texts never hold a raw \0, so the key is unambiguous; an absent value is an empty text.
  let containersKey = 'containers';
  for (const [name, a] of aspects) {
    containersKey += `\0${JSON.stringify(name)}\0${a.image === undefined ? '' : JSON.stringify(a.image)}\0${a.resources ?? ''}\0${a.args ?? ''}\0${a.env ?? ''}`;
  }
  return shared.share(containersKey, aspects);
}

/**
 * `columns`: kubectl's columns of the pod when known already (its row has them); `containers`: the pod's
 * containers as sharedContainers holds them, when known already (TemplateContainers found them by their bytes).
 */
export function matrixPodOf(
  pod: PodTree,
  shared: SharedValues,
  columns: Pick<KubectlColumns, 'ready' | 'total' | 'restarts'> = kubectlColumns(pod),
  containers: ContainerAspects = sharedContainers(containerAspects(pod, (text) => shared.share(text, text)), shared),
): MatrixPod {
  const workload = workloadOf(pod);
  const key = workloadKey(workload);
  const held = shared.share(`workload\0${key}`, { workload, key });
  // Every property written out, never spread from the shared object: V8 gave each object spread from it
  // a hidden class of its own (~300 bytes a pod, and a heap the full collection could not give back).
  return {
    workload: held.workload,
    key: held.key,
    name: strAt(objAt(pod.metadata).name),
    phase: shared.string(strAt(objAt(pod.status).phase)),
    ready: columns.total > 0 && columns.ready === columns.total,
    restarts: columns.restarts,
    containers,
  };
}

/** The pods of one source, grouped by workload; a step per pod. */
function* groupByWorkload(pods: readonly MatrixPod[]): Generator<void, Map<string, { workload: WorkloadId; pods: MatrixPod[] }>> {
  const groups = new Map<string, { workload: WorkloadId; pods: MatrixPod[] }>();
  for (const pod of pods) {
    const group = groups.get(pod.key);
    if (group) group.pods.push(pod);
    else groups.set(pod.key, { workload: pod.workload, pods: [pod] });
    yield;
  }
  return groups;
}

function cellOf(pods: MatrixPod[]): MatrixCell {
  const cell: MatrixCell = { pods: pods.length, readyPods: 0, phases: {}, restarts: 0, podNames: [] };
  for (const pod of pods) {
    if (pod.ready) cell.readyPods++;
    cell.restarts += pod.restarts;
    cell.phases[pod.phase] = (cell.phases[pod.phase] ?? 0) + 1;
    cell.podNames.push(pod.name);
  }
  cell.podNames.sort();
  return cell;
}

/** The matrix of the sources, a step per pod grouped and per row built; its return value is the matrix. */
export function* workloadMatrixSteps(inputs: readonly MatrixSource[]): Generator<void, WorkloadMatrix> {
  const perSource: (Map<string, { workload: WorkloadId; pods: MatrixPod[] }> | null)[] = [];
  for (const s of inputs) perSource.push('pods' in s ? yield* groupByWorkload(s.pods) : null);
  const workloads = new Map<string, WorkloadId>();
  for (const groups of perSource) for (const [key, g] of groups ?? []) if (!workloads.has(key)) workloads.set(key, g.workload);
  const keys = [...workloads.keys()].sort((a, b) => {
    const x = workloads.get(a)!;
    const y = workloads.get(b)!;
    return x.namespace.localeCompare(y.namespace) || x.kind.localeCompare(y.kind) || x.name.localeCompare(y.name);
  });
  const answered = perSource.map((g) => g !== null);
  const runsStaticPods = perSource.map((g) => [...(g?.values() ?? [])].some((x) => x.workload.kind === 'Static'));
  const rows: MatrixRow[] = [];
  for (const key of keys) {
    const workload = workloads.get(key)!;
    const podsPerSource = perSource.map((g) => g?.get(key)?.pods ?? null);
    rows.push({
      workload,
      key,
      cells: podsPerSource.map((pods) => (pods ? cellOf(pods) : null)),
      drift: findDrift(
        workload,
        podsPerSource.map((pods) => pods?.map((p) => p.containers) ?? null),
        {
          sources: inputs.map((s) => s.id),
          // Where a missing pod counts: every node for a DaemonSet, the control-plane nodes for a static pod.
          expected: workload.kind === 'DaemonSet' ? answered : workload.kind === 'Static' ? runsStaticPods : null,
        },
      ),
    });
    yield;
  }
  return {
    sources: inputs.map((s) => ('error' in s ? { id: s.id, error: s.error } : { id: s.id })),
    rows,
    drifted: rows.filter((r) => r.drift.length > 0).length,
  };
}

/** The matrix of the sources' pods, at once (the CLI). */
export function buildWorkloadMatrix(inputs: readonly MatrixInput[]): WorkloadMatrix {
  const shared = new SharedValues(10_000);
  return runAtOnce(workloadMatrixSteps(inputs.map((s) => ('pods' in s ? { id: s.id, pods: s.pods.map((pod) => matrixPodOf(pod, shared)) } : s))));
}
