import { ContractError, type PodDetail } from '../contract';
import { SUMMARY_FIELD_SOURCES, unselectedFields } from '../pod/view/pod-field-sources';
import { summarizePod } from '../pod/view/summarize-pod';
import { podToKubectlJson } from '../pod/kubectl-json';
import { decodeStored, type StoredPod } from '../pod/stored-pod';
import { versionsOf, type CoreState, type NodeRecord } from './core-state';
import type { CoreHandlers } from './core-types';
import { wholePod } from './whole-pods';

/** A node's pods: its table's rows, and one pod's detail (current or deleted). */
export function podHandlers(core: CoreState): Pick<CoreHandlers, 'pods.rows' | 'pods.watch' | 'pods.get'> {
  const { recordOf, podWatchers } = core;
  return {
    'pods.rows': ({ nodeId }) => recordOf(nodeId).pods.snapshot(),
    'pods.watch': ({ nodeId }, call) => podWatchers.watch(recordOf(nodeId).info.id, call),
    'pods.get': ({ nodeId, uid }) => podDetail(recordOf(nodeId), uid, core.now),
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

/** A pod now (a rows-only node's read from the node as it is opened), or as it was deleted while its history keeps it. */
const podDetail = async (record: NodeRecord, uid: string, now: () => number): Promise<PodDetail> => {
  const current = await wholePod(record, uid);
  if (current) return { ...detailOf(record, current.pod), ...(current.fetched ? { fetchedAt: now() } : {}) };
  const last = versionsOf(record, uid).at(-1);
  if (last?.event === 'DELETED') return { ...detailOf(record, last.pod), deletedAt: last.time };
  throw new ContractError('not-found', `Pod ${uid} is not on ${record.info.label} (any more).`, 'It was deleted and its history has expired; pick another pod.');
};
