/**
 * How a request carries a field mask (docs/kubelet-pods-api.md §2): the ASCII metadata key
 * `x-kubernetes-fieldmask` with one comma-separated list of paths.
 */
import { FieldMaskError } from '../mask/field-mask-error';
import { parseFieldMask, type FieldMask } from '../mask/field-mask';

export const FIELD_MASK_METADATA_KEY = 'x-kubernetes-fieldmask';

/**
 * The mask of a request from the metadata values for the key (grpc-js `metadata.get(key)`):
 * undefined when there is none (whole pods); a FieldMaskError (INVALID_ARGUMENT) for more than one
 * value or a bad mask.
 */
export function fieldMaskFromMetadata(values: readonly (string | Uint8Array)[]): FieldMask | undefined {
  if (values.length === 0) return undefined;
  if (values.length > 1) {
    throw new FieldMaskError(`${values.length} values for ${FIELD_MASK_METADATA_KEY}; send one value with the paths separated by commas`, '', '', 0);
  }
  const value = values[0]!;
  return parseFieldMask(typeof value === 'string' ? value : Buffer.from(value).toString('utf8'));
}
