import type { FieldMask } from '../mask/field-mask';
import { isNotHeld, type StoredPod } from '../pod/stored-pod';
import { SharedValues } from '../util/shared-values';
import { matrixPodOf, workloadMatrixSteps, type MatrixPod, type MatrixSource, type WorkloadMatrix } from '../fleet/workload-matrix';
import type { AppEvent } from './app-event';
import type { PodEntry } from './node-pods';
import type { CoreState, NodeRecord } from './core-state';
import type { CoreHandlers } from './core-types';
import { MATRIX_PACE_MS, watchMatrix } from './matrix-watch';
import { SharedBuild } from './shared-build';

/** The fleet matrix: workloads across many nodes, rebuilt only when one of them changed. */
export function fleetHandlers(core: CoreState): Pick<CoreHandlers, 'fleet.matrix' | 'fleet.watchMatrix'> {
  const { options, recordOf, inSlices, subscribe, closing } = core;
  /** The last matrix built (or being built), and what it was built from. */
  const matrixBuild = new SharedBuild<WorkloadMatrix>();
  /** What the matrix read of each pod as received, through the mask it was shown with: read again only for a pod that changed. */
  const matrixPods = new WeakMap<StoredPod, { mask: FieldMask | null; pod: MatrixPod }>();
  const matrixShared = new SharedValues(10_000);
  const matrixPodFor = (record: NodeRecord, { pod: stored, matrix }: PodEntry): MatrixPod => {
    // Taken as the pod arrived (a live node's), from the fields decoded then: no bytes are read.
    if (matrix) return matrix;
    // A rows-only node's pods always come with theirs (IncomingPod).
    if (isNotHeld(stored)) throw new Error('A pod held as its row only came without its matrix pod.');
    const mask = record.pods.fieldMask;
    const kept = matrixPods.get(stored);
    if (kept?.mask === mask) return kept.pod;
    const pod = matrixPodOf(record.pods.shown(stored), matrixShared);
    matrixPods.set(stored, { mask, pod });
    return pod;
  };
  /**
   * The workload matrix of these sources. A matrix over a hundred nodes is rebuilt only when one of them
   * changed, and while one is being built for these sources, that one answers (never a pile of them); it
   * stops when every caller waiting for it cancelled.
   */
  const matrixOf = (nodeIds: string[], caller: AbortSignal): Promise<WorkloadMatrix> => {
    const records = nodeIds.map(recordOf);
    const version = JSON.stringify(records.map((r) => [r.info.id, r.info.label, r.info.state.phase, r.info.mask, r.pods.batches]));
    const build = (signal: AbortSignal) => {
      const labels = records.map((r) => r.info.label);
      // Columns are named by label, as the user sees them; two alike (two files of one name) by their ids too.
      const idOf = (r: NodeRecord, i: number) => (labels.indexOf(labels[i]!) === labels.lastIndexOf(labels[i]!) ? r.info.label : `${r.info.label} (${r.info.id})`);
      // The sources as they are now; each pod is read as the build reaches it.
      const read = records.map((r, i): { id: string; error: string } | { id: string; record: NodeRecord; pods: PodEntry[] } => {
        const { phase } = r.info.state;
        if (phase === 'live' || phase === 'offline') return { id: idOf(r, i), record: r, pods: [...r.pods.values()] };
        return { id: idOf(r, i), error: `not live (${phase === 'error' ? r.info.state.cause : phase})` };
      });
      const steps = (function* () {
        const inputs: MatrixSource[] = [];
        for (const source of read) {
          if ('error' in source) {
            inputs.push(source);
            continue;
          }
          const pods: MatrixPod[] = [];
          for (const entry of source.pods) {
            pods.push(matrixPodFor(source.record, entry));
            yield;
          }
          inputs.push({ id: source.id, pods });
        }
        return yield* workloadMatrixSteps(inputs);
      })();
      return inSlices(steps, signal);
    };
    return matrixBuild.get(nodeIds.join(','), version, build, caller);
  };
  return {
    'fleet.matrix': ({ nodeIds }, call) => matrixOf(nodeIds, call.signal),
    'fleet.watchMatrix': ({ nodeIds }, call) => {
      const ids = new Set(nodeIds.map((id) => recordOf(id).info.id));
      const changes = (changed: () => void) =>
        subscribe((event: AppEvent) => {
          const nodeId = event.name === 'nodeState' ? event.payload.id : event.name === 'podDeltas' || event.name === 'nodeRemoved' ? event.payload.nodeId : null;
          if (nodeId !== null && ids.has(nodeId)) changed();
        });
      // The watch ends with its caller, or when the core closes.
      const signal = AbortSignal.any([call.signal, closing]);
      return watchMatrix((build) => matrixOf(nodeIds, build), changes, { ...call, signal }, options.matrixPaceMs ?? MATRIX_PACE_MS);
    },
  };
}
