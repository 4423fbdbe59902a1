/**
 * A source's pods as whole objects, wherever they are: held (a node's bytes, a file's trees), or read from the
 * node through its link when the node keeps rows only (docs/app.md, "Rows-only nodes"). Never a row passed off
 * as a pod: a pod the node no longer has, or a node not connected, is said so.
 */
import { ContractError } from '../contract';
import type { DecodedPod } from '../pod/pod-tree';
import { decodeStored, isNotHeld, type StoredPod } from '../pod/stored-pod';
import type { NodeRecord } from './core-state';
import { incomingUid } from './node-pods';

/** Why a rows-only node's pods are read from the node, for the messages that say what could not be. */
export const ROWS_ONLY_WHY = 'it keeps rows only (more nodes are open than "Keep rows only above" in Settings), so its pods are read from the node when asked';

/** What makes a rows-only node keep whole pods again (it switches in place: app/core/rows-only-fleet.ts). */
export const KEEP_WHOLE_PODS = 'Raise "Keep rows only above" in Settings to the number of nodes open or more: the node then reads its pods whole again';

const linkOf = (record: NodeRecord) => {
  const link = record.link;
  if (!link?.getPod || !link.listPods) {
    throw new ContractError('unavailable', `${record.info.label} is not connected, and ${ROWS_ONLY_WHY}.`, 'Connect the node, then try again.');
  }
  return link as typeof link & Required<Pick<typeof link, 'getPod' | 'listPods'>>;
};

/** The pod now, as a whole, and whether it was read from the node (rows only) rather than held. */
export async function wholePod(record: NodeRecord, uid: string): Promise<{ pod: DecodedPod; fetched: boolean } | undefined> {
  const entry = record.pods.get(uid);
  if (!entry) return undefined;
  if (!isNotHeld(entry.pod)) return { pod: decodeStored(entry.pod), fetched: false };
  const pod = await linkOf(record).getPod(uid);
  if (!pod) {
    const { namespace, name } = entry.row;
    throw new ContractError(
      'not-found',
      `Pod ${namespace}/${name} is no longer on ${record.info.label}: the node says it has no such pod (deleted since its row was shown).`,
      'Its row goes once the node reports the deletion; pick another pod.',
    );
  }
  return { pod, fetched: true };
}

/**
 * The node's current pods (all, or these UIDs) as whole objects, by UID: those held as they are held (decodeStored
 * gives their trees as they are used), a rows-only node's read from the node in one ListPods (then only those
 * still on it).
 */
export async function wholePods(record: NodeRecord, uids: 'all' | string[]): Promise<{ uid: string; pod: StoredPod }[]> {
  const entries = uids === 'all' ? [...record.pods.values()] : uids.flatMap((uid) => record.pods.get(uid) ?? []);
  const held = entries.flatMap(({ pod, row }) => (isNotHeld(pod) ? [] : [{ uid: row.uid, pod }]));
  if (held.length === entries.length) return held;
  const wanted = new Set(entries.map((e) => e.row.uid));
  const listed = await linkOf(record).listPods();
  return listed.flatMap((pod) => {
    const uid = incomingUid(pod);
    return uid !== undefined && wanted.has(uid) ? [{ uid, pod }] : [];
  });
}
