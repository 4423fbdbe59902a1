import { ContractError, type PodDetail } from '../contract';
import { SUMMARY_FIELD_SOURCES, unselectedFields } from '../pod/view/pod-field-sources';
import { summarizePod } from '../pod/view/summarize-pod';
import { podToKubectlJson } from '../pod/kubectl-json';
import { decodeStored, type StoredPod } from '../pod/stored-pod';
import { versionsOf, type CoreState, type NodeRecord } from './core-state';
import type { CoreHandlers } from './core-types';

/** A node's pods: its table's rows, and one pod's detail (current or deleted). */
export function podHandlers(core: CoreState): Pick<CoreHandlers, 'pods.rows' | 'pods.watch' | 'pods.get'> {
  const { recordOf, podWatchers } = core;
  return {
    'pods.rows': ({ nodeId }) => recordOf(nodeId).pods.snapshot(),
    'pods.watch': ({ nodeId }, call) => podWatchers.watch(recordOf(nodeId).info.id, call),
    'pods.get': ({ nodeId, uid }) => podDetail(recordOf(nodeId), uid),
  };
}

/** A pod (current, deleted or an earlier version) as shown: through the node's mask, never zero-filled. */
export const detailOf = (record: NodeRecord, stored: StoredPod): PodDetail => {
  const decoded = decodeStored(stored);
  const shown = record.pods.shown(decoded);
  const mask = record.pods.fieldMask;
  return {
    json: podToKubectlJson(shown, mask ? { mask } : {}),
    summary: summarizePod(shown),
    notSelected: unselectedFields(SUMMARY_FIELD_SOURCES, mask?.paths ?? []),
    unknownFields: decoded.unknownFields.map((f) => ({
      path: f.path,
      fieldNumber: f.fieldNumber,
      wireType: f.wireType,
      rawHex: [...f.raw].map((b) => b.toString(16).padStart(2, '0')).join(''),
    })),
  };
};

/** A pod now, or as it was deleted while its history keeps it. */
const podDetail = (record: NodeRecord, uid: string): PodDetail => {
  const entry = record.pods.get(uid);
  if (entry) return detailOf(record, entry.pod);
  const last = versionsOf(record, uid).at(-1);
  if (last?.event === 'DELETED') return { ...detailOf(record, last.pod), deletedAt: last.time };
  throw new ContractError('not-found', `Pod ${uid} is not on ${record.info.label} (any more).`, 'It was deleted and its history has expired; pick another pod.');
};
