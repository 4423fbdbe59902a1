/**
 * A pod as the client hands it out: decoded, with the user's field mask applied here whatever the
 * kubelet did with it, its identity taken from the wire (so a mask without metadata.uid still tells
 * pods apart), and a digest of its wire bytes rather than the bytes themselves: enough to tell an
 * unchanged pod without decoding it again, at a few dozen bytes instead of a second copy of the pod.
 * A holder of many pods may keep their bytes instead of their trees (PodIntake.keep is handed them).
 */
import { hash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { applyFieldMask, formatFieldMask, parseFieldMask, type FieldMask } from '../mask/field-mask';
import { decodePod } from '../pod/decode';
import { decodePodFields } from '../pod/decode-fields';
import type { DecodedPod, PodObject, PodValue } from '../pod/pod-tree';

/** Who a received pod is and what it was on the wire, without its tree: what a watch may hold per pod. */
export interface HeldPod {
  uid: string;
  namespace: string;
  name: string;
  /** podDigest of the pod exactly as received (before the local mask): the same bytes, the same digest. */
  digest: string;
  /** It carried nothing but its identity and a deletionTimestamp: how the documented watch reports a removal. */
  tombstone: boolean;
  /** With a mask: whether the kubelet has applied it to every pod so far on this call (it is applied here anyway). */
  maskHonoured?: boolean;
}

export interface ReceivedPod extends HeldPod, DecodedPod {}

/** The bytes in a buffer of their own: a view into a larger message would keep all of that message alive. */
export function ownBytes(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
}

const TOMBSTONE_KEYS = new Set(['name', 'namespace', 'uid', 'deletionTimestamp']);

/** Go's marshaller writes empty spec and status messages too, so only the fields that are set count. */
function isTombstone(pod: PodObject): boolean {
  // Cheap first: most pods are not being deleted, and a real pod being deleted has more metadata set.
  const metadata = pod.metadata as PodObject | undefined;
  if (!metadata?.deletionTimestamp) return false;
  for (const [k, v] of Object.entries(metadata)) if (!TOMBSTONE_KEYS.has(k) && v !== undefined && setFields(v) !== undefined) return false;
  const set = (setFields(pod) ?? {}) as PodObject;
  const meta = set.metadata as PodObject | undefined;
  if (!meta || Object.keys(set).length !== 1 || meta.deletionTimestamp === undefined) return false;
  return Object.keys(meta).every((k) => TOMBSTONE_KEYS.has(k));
}

/** Paths always asked of the kubelet with a mask, so every pod keeps its identity on the wire. */
const IDENTITY_PATHS = 'metadata.name,metadata.namespace,metadata.uid';

/** The mask sent to the kubelet: the user's plus the identity paths. */
export function wireMask(mask: FieldMask): FieldMask {
  return parseFieldMask(`${formatFieldMask(mask)},${IDENTITY_PATHS}`);
}

/** The value without zero values ('' 0 false null, empty lists and objects). */
function setFields(value: PodValue): PodValue | undefined {
  if (value === '' || value === 0 || value === false || value === null) return undefined;
  if (Array.isArray(value)) return value.length ? value.map((v) => setFields(v) ?? null) : undefined;
  if (typeof value !== 'object') return value;
  const out: PodObject = {};
  for (const [k, v] of Object.entries(value)) {
    const kept = v === undefined ? undefined : setFields(v);
    if (kept !== undefined) out[k] = kept;
  }
  return Object.keys(out).length ? out : undefined;
}

/**
 * Identifies a pod's wire bytes (SHA-1: hashing 3 KB costs a hundredth of decoding it). One-shot: a Hash
 * object per pod outlived the young generation (it is a stream with a native half), so each relist of
 * 30,000 pods left ~10 MB of them for full collections.
 */
export function podDigest(bytes: Uint8Array): string {
  return hash('sha1', bytes, 'base64');
}

/** What a reader decodes of a pod besides the fields its caller reads: the identity, and what marks a tombstone. */
const readsAlways = new WeakMap<FieldMask, FieldMask>();
function withIdentity(reads: FieldMask): FieldMask {
  let mask = readsAlways.get(reads);
  if (!mask) readsAlways.set(reads, (mask = parseFieldMask(`${formatFieldMask(reads)},${IDENTITY_PATHS},metadata.deletionTimestamp`)));
  return mask;
}

export interface PodReader {
  /**
   * Decodes one pod from the wire; `label` names it in decode errors; `digest` when already computed.
   * `reads`: the only fields the caller reads of the tree (with the identity, the rest is not decoded), but
   * for a pod that may be a tombstone (isTombstone looks at every field) and while a mask's honouring is being judged.
   */
  read(bytes: Uint8Array, label: string, digest?: string, reads?: FieldMask): ReceivedPod;
  /** false once a pod arrived that the kubelet did not mask; undefined until a pod arrived, or without a mask. */
  maskHonoured(): boolean | undefined;
}

export function podReader(mask: FieldMask | undefined): PodReader {
  const sent = mask && wireMask(mask);
  let honoured: boolean | undefined;
  return {
    read(bytes, label, digest = podDigest(bytes), reads) {
      // Whether the kubelet honoured the mask is judged on the whole pod, as long as it has so far.
      const whole = reads === undefined || (sent !== undefined && honoured !== false);
      let decoded = whole ? decodePod(bytes, label) : decodePodFields(bytes, withIdentity(reads), label);
      let tombstone = isTombstone(decoded.pod);
      // What was decoded holds no field beyond a tombstone's: the fields not decoded may (a pod being deleted
      // shows more in any field), so the whole pod says. Any field set beyond them says it already.
      if (tombstone && !whole) tombstone = isTombstone((decoded = decodePod(bytes, label)).pod);
      const meta = (decoded.pod.metadata ?? {}) as PodObject;
      const identity = { uid: String(meta.uid ?? ''), namespace: String(meta.namespace ?? ''), name: String(meta.name ?? ''), tombstone };
      // Written out rather than spread: this runs for every pod received.
      if (!mask || !sent) return { pod: decoded.pod, unknownFields: decoded.unknownFields, uid: identity.uid, namespace: identity.namespace, name: identity.name, tombstone, digest };
      // A kubelet that honoured the mask sent pods the mask leaves unchanged, but for the zero values
      // Go's marshaller writes for every non-pointer field of the messages it kept.
      if (honoured !== false) honoured = isDeepStrictEqual(setFields(applyFieldMask(decoded.pod, sent)), setFields(decoded.pod));
      return { pod: applyFieldMask(decoded.pod, mask), unknownFields: decoded.unknownFields, ...identity, digest, maskHonoured: honoured };
    },
    maskHonoured: () => honoured,
  };
}
