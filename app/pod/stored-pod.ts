/**
 * A pod as the core keeps it while it is not being looked at. A decoded tree costs about six times its
 * wire bytes on the heap (~18 KB against ~3 KB), so a live node's pods are kept as their bytes and
 * decoded again where a whole pod is needed (detail, exports, diffs, history). Pods that never had
 * bytes (files read as JSON or YAML, the in-memory preview) stay trees.
 */
import { applyFieldMask, formatFieldMask, type FieldMask } from '../mask/field-mask';
import { decodePod } from './decode';
import type { DecodedPod } from './pod-tree';
import { sameBytes } from '../util/same-bytes';

export interface PodBytes {
  /** The pod's wire bytes, in a buffer of their own. */
  bytes: Uint8Array;
  /** The mask the pod was received through: applied again each time it is decoded. */
  mask?: FieldMask;
}

export type StoredPod = PodBytes | DecodedPod;

/**
 * A pod of a rows-only node (docs/app.md, "Rows-only nodes"): the digest of its wire bytes, which tells a
 * changed pod from an unchanged one, and not the bytes: its whole object is read from the node when opened.
 */
export interface PodNotHeld {
  digest: string;
  notHeld: true;
}

/** A pod as a pod set or history may hold it: whole (bytes or tree), or only known by its digest. */
export type HeldStored = StoredPod | PodNotHeld;

export function isNotHeld(pod: HeldStored): pod is PodNotHeld {
  return 'notHeld' in pod && pod.notHeld === true;
}

export function isPodBytes(pod: StoredPod): pod is PodBytes {
  return 'bytes' in pod && pod.bytes instanceof Uint8Array && !('pod' in pod);
}

/** The pod's tree (and unknown fields), as it was when received. */
export function decodeStored(stored: StoredPod): DecodedPod {
  if (!isPodBytes(stored)) return stored;
  const { pod, unknownFields } = decodePod(stored.bytes);
  return { pod: stored.mask ? applyFieldMask(pod, stored.mask) : pod, unknownFields };
}

/** Whether two stored pods are the same pod as received: the same bytes (and mask) or digest, or the same tree object. */
export function sameStored(a: HeldStored, b: HeldStored): boolean {
  if (a === b) return true;
  if (isNotHeld(a) || isNotHeld(b)) return isNotHeld(a) && isNotHeld(b) && a.digest === b.digest;
  if (isPodBytes(a) && isPodBytes(b)) return sameMask(a.mask, b.mask) && sameBytes(a.bytes, b.bytes);
  return !isPodBytes(a) && !isPodBytes(b) && a.pod === b.pod;
}

/** Each connection parses its mask anew: the same paths are the same mask. */
function sameMask(a: FieldMask | undefined, b: FieldMask | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && formatFieldMask(a) === formatFieldMask(b));
}

