import { describe, expect, it } from 'vitest';
import { FieldMaskError } from '../mask/field-mask';
import { FIELD_MASK_METADATA_KEY, fieldMaskFromMetadata } from './mask-metadata';

describe('fieldMaskFromMetadata', () => {
  it('reads the one value of the metadata key, and rejects several values', () => {
    expect(FIELD_MASK_METADATA_KEY).toBe('x-kubernetes-fieldmask');
    expect(fieldMaskFromMetadata([])).toBeUndefined();
    expect(fieldMaskFromMetadata(['status.phase, metadata.name'])?.paths).toEqual(['metadata.name', 'status.phase']);
    expect(fieldMaskFromMetadata([Buffer.from('status.phase')])?.paths).toEqual(['status.phase']);
    expect(() => fieldMaskFromMetadata(['status.phase', 'metadata.name'])).toThrow(/2 values for x-kubernetes-fieldmask/);
    expect(() => fieldMaskFromMetadata(['status.phse'])).toThrow(FieldMaskError);
  });
});
