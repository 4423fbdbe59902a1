/**
 * What a mask would give on a node's pods, before it is applied: one pod through it, printed as a
 * masked export prints it, and how much of the whole pod set it keeps out (bytes and values). A step
 * per pod, so the core runs it in time slices (app/util/time-slices) and a 30,000-pod node never holds
 * the server's thread.
 */
import type { MaskPreview } from '../contract';
import { applyFieldMask, type FieldMask } from '../mask/field-mask';
import { podBytesToNdjsonLine, podToKubectlJson, podToNdjsonLine } from '../pod/kubectl-json';
import type { PodTree, PodValue } from '../pod/pod-tree';
import { decodeStored, isPodBytes, type StoredPod } from '../pod/stored-pod';

/** Scalars (and null times) in a value: what an operator would call fields. */
function countValues(value: PodValue | undefined): number {
  if (value === undefined) return 0;
  if (value === null || typeof value !== 'object') return 1;
  let n = 0;
  if (Array.isArray(value)) for (const v of value) n += countValues(v);
  else for (const k in value) n += countValues(value[k]);
  return n;
}

const encoder = new TextEncoder();
let scratch = new Uint8Array(1 << 16);
/** The UTF-8 length of `text`, encoded into one reused buffer rather than a new one per pod. */
function utf8Length(text: string): number {
  if (scratch.length < text.length * 3) scratch = new Uint8Array(text.length * 3);
  return encoder.encodeInto(text, scratch).written;
}

/**
 * Each pod's unmasked NDJSON size and values, per pod as received (a stored pod never changes): the same
 * for every mask the user tries, so a preview after the first prints and counts only the masked pods.
 */
const wholeSizes = new WeakMap<StoredPod, { bytes: number; fields: number }>();

/** A pod's line in an unmasked NDJSON export: straight from its bytes when it has them as received, without printing a tree. */
function wholeLine(stored: StoredPod, tree: PodTree): string {
  return isPodBytes(stored) && !stored.mask ? podBytesToNdjsonLine(stored.bytes).json : podToNdjsonLine(tree);
}

/** The preview over `pods`, one step per pod (yielding how many are done); its return value is the preview. */
export function* maskPreviewSteps(pods: Iterable<StoredPod>, mask: FieldMask, sample: PodTree | undefined, fetchedWith: string): Generator<number, Extract<MaskPreview, { ok: true }>> {
  let count = 0;
  let fullBytes = 0;
  let maskedBytes = 0;
  let fullFields = 0;
  let maskedFields = 0;
  for (const stored of pods) {
    const pod = decodeStored(stored).pod;
    const masked = applyFieldMask(pod, mask);
    let whole = wholeSizes.get(stored);
    if (!whole) {
      whole = { bytes: utf8Length(wholeLine(stored, pod)) + 1, fields: countValues(pod) };
      wholeSizes.set(stored, whole);
    }
    fullBytes += whole.bytes;
    maskedBytes += utf8Length(podToNdjsonLine(masked, { mask })) + 1;
    fullFields += whole.fields;
    maskedFields += countValues(masked);
    yield ++count;
  }
  const meta = (sample?.metadata ?? {}) as Record<string, PodValue>;
  return {
    ok: true,
    sample: sample
      ? { namespace: String(meta.namespace ?? ''), name: String(meta.name ?? ''), json: podToKubectlJson(applyFieldMask(sample, mask), { mask }) }
      : null,
    pods: count,
    fullBytes,
    maskedBytes,
    fullFields,
    maskedFields,
    fetchedWith,
  };
}
