import { ContractError, DIFF_PAGE_MAX } from '../contract';
import { applyFieldMask } from '../mask/field-mask';
import { sharedPaths } from '../mask/mask-coverage';
import { decodeStored, type StoredPod } from '../pod/stored-pod';
import { timelineAt, type CoreState, type NodeRecord } from './core-state';
import type { CoreHandlers } from './core-types';
import { maskOf } from './node-mask';
import { incomingUid } from './node-pods';
import { wholePods } from './whole-pods';
import type { DiffSideInput } from './source-diff-jobs';

/** Source comparisons: run as jobs, read in pages, forgotten, and one pod pair drilled into. */
export function diffHandlers(core: CoreState): Pick<CoreHandlers, 'diff.run' | 'diff.result' | 'diff.forget' | 'diff.pods'> {
  const { presets, recordOf, diffJobs } = core;
  /**
   * One side of a source comparison as it is now (a recording at `at`): its pods through its own mask
   * and the other side's, so only the fields both sides selected are compared.
   */
  const diffSide = async (side: { nodeId: string; at?: number | undefined }, other: NodeRecord): Promise<DiffSideInput> => {
    const record = recordOf(side.nodeId);
    const source = record.offline;
    let at: number | undefined;
    // A live pod's UID is its row's; a file's pods are trees already, read for theirs.
    let pods: { stored: StoredPod; uid?: string }[];
    if (source?.kind === 'recording') {
      const state = record.info.state;
      at = timelineAt(source, side.at ?? (state.phase === 'offline' ? state.timeline?.at : undefined) ?? source.end);
      pods = source.podsAt(at).map((stored) => ({ stored }));
    } else {
      if (side.at !== undefined) {
        throw new ContractError('invalid-input', `${record.info.label} is not a recording: it has no other time to compare.`, 'Leave the time out, or pick a recording.');
      }
      // A rows-only node's are read from it now, in one ListPods.
      pods = (await wholePods(record, 'all')).map(({ uid, pod }) => ({ stored: pod, uid }));
    }
    const own = maskOf(record.info.mask, presets());
    const others = maskOf(other.info.mask, presets());
    const shared = sharedPaths(own?.paths ?? [], others?.paths ?? []);
    // Masks that share nothing leave only who each pod is to compare.
    const both = own || others ? maskOf(shared.length > 0 ? shared.join(',') : 'metadata.uid,metadata.name,metadata.namespace', []) : null;
    const shown = (stored: StoredPod) => {
      const { pod } = decodeStored(stored);
      return both ? applyFieldMask(pod, both) : pod;
    };
    return {
      info: { nodeId: side.nodeId, label: record.info.label, mask: record.info.mask, podCount: pods.length, ...(at !== undefined ? { at } : {}) },
      pods: pods.flatMap(({ stored, uid }) => {
        const known = uid ?? incomingUid(stored);
        if (!known) return [];
        // Decoded when the job reads it, in its time slices, and not kept: a node of 30,000 held as bytes
        // is neither decoded all at once when the comparison starts nor held decoded once it is done.
        return [{ uid: known, get tree() { return shown(stored); } }];
      }),
      ...(both ? { mask: both } : {}),
    };
  };
  return {
    'diff.run': async ({ left, right, noise }, call) => {
      const l = recordOf(left.nodeId);
      const r = recordOf(right.nodeId);
      const [leftSide, rightSide] = await Promise.all([diffSide(left, r), diffSide(right, l)]);
      const jobId = await diffJobs.run(leftSide, rightSide, noise ?? { defaults: true }, call);
      return diffJobs.result(jobId, 0, DIFF_PAGE_MAX);
    },
    'diff.result': ({ jobId, offset, limit }) => diffJobs.result(jobId, offset, limit),
    'diff.forget': ({ jobId }) => {
      diffJobs.forget(jobId);
      return {};
    },
    'diff.pods': ({ jobId, leftUid, rightUid }) => diffJobs.pods(jobId, leftUid, rightUid),
  };
}
