import type { MaskCheck } from '../contract';
import { FieldMaskError, type FieldMask } from '../mask/field-mask';
import { parseMaskWithPresets, type MaskPreset } from '../mask/mask-presets';

/** The mask a text gives, presets expanded; null for '' (whole pods). Throws FieldMaskError. */
export function maskOf(text: string, presets: readonly MaskPreset[]): FieldMask | null {
  return text.trim() === '' ? null : parseMaskWithPresets(text, presets);
}

/** Checks a mask as typed: '' (no mask) is fine; errors carry their position for the mask box. */
export function checkMask(text: string, presets: readonly MaskPreset[]): MaskCheck {
  try {
    return { ok: true, paths: [...(maskOf(text, presets)?.paths ?? [])] };
  } catch (err) {
    if (err instanceof FieldMaskError) return { ok: false, error: err.message, position: err.position };
    throw err;
  }
}
