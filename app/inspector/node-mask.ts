import type { MaskCheck } from '../contract';
import { applyFieldMask, FieldMaskError, parseFieldMask } from '../mask/field-mask';
import type { PodView } from './node-pods';

/** Checks a mask as typed: '' (no mask) is fine; errors carry their position for the mask box. */
export function checkMask(text: string): MaskCheck {
  if (text.trim() === '') return { ok: true, paths: [] };
  try {
    return { ok: true, paths: [...parseFieldMask(text).paths] };
  } catch (err) {
    if (err instanceof FieldMaskError) return { ok: false, error: err.message, position: err.position };
    throw err;
  }
}

/** The view a valid mask gives the node's pods; null for no mask. */
export function maskView(text: string): PodView | null {
  if (text.trim() === '') return null;
  const mask = parseFieldMask(text);
  return (pod) => applyFieldMask(pod, mask);
}
