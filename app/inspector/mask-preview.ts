/**
 * What a mask would give on a node's pods, before it is applied: one pod through it, printed as a
 * masked export prints it, and how much of the whole pod set it keeps out (bytes and values).
 */
import type { MaskPreview } from '../contract';
import { applyFieldMask, type FieldMask } from '../mask/field-mask';
import { podToKubectlJson, podToNdjsonLine } from '../pod/kubectl-json';
import type { PodTree, PodValue } from '../pod/pod-tree';

/** Scalars (and null times) in a value: what an operator would call fields. */
function countValues(value: PodValue | undefined): number {
  if (value === undefined) return 0;
  if (value === null || typeof value !== 'object') return 1;
  let n = 0;
  if (Array.isArray(value)) for (const v of value) n += countValues(v);
  else for (const k in value) n += countValues(value[k]);
  return n;
}

const utf8Length = (text: string): number => new TextEncoder().encode(text).length;

export function maskPreview(pods: Iterable<PodTree>, mask: FieldMask, sample: PodTree | undefined, fetchedWith: string): Extract<MaskPreview, { ok: true }> {
  let count = 0;
  let fullBytes = 0;
  let maskedBytes = 0;
  let fullFields = 0;
  let maskedFields = 0;
  for (const pod of pods) {
    count++;
    const masked = applyFieldMask(pod, mask);
    fullBytes += utf8Length(podToNdjsonLine(pod)) + 1;
    maskedBytes += utf8Length(podToNdjsonLine(masked, { mask })) + 1;
    fullFields += countValues(pod);
    maskedFields += countValues(masked);
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
