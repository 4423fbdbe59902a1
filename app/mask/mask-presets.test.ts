import { describe, expect, it } from 'vitest';
import { FieldMaskError, parseFieldMask } from './field-mask';
import { coverage, fetchedCovers } from './mask-coverage';
import { BUILT_IN_PRESETS, expandPresets, parseMaskWithPresets, type MaskPreset } from './mask-presets';

const saved: MaskPreset = { name: 'mine', paths: ['metadata.labels'], description: 'saved', builtIn: false };
const presets = [...BUILT_IN_PRESETS, saved];

function errorOf(text: string): FieldMaskError {
  try {
    parseMaskWithPresets(text, presets);
  } catch (err) {
    expect(err).toBeInstanceOf(FieldMaskError);
    return err as FieldMaskError;
  }
  throw new Error(`expected "${text}" to be rejected`);
}

describe('mask presets', () => {
  it('are valid canonical masks, one for each thing operators ask about', () => {
    expect(BUILT_IN_PRESETS.map((p) => p.name)).toEqual(['identity', 'readiness', 'images', 'resources', 'networking', 'scheduling']);
    for (const preset of BUILT_IN_PRESETS) expect(parseFieldMask(preset.paths.join(',')).paths, preset.name).toEqual([...preset.paths].sort());
  });

  it('expand @NAME, and @NAME,extra.path extends one', () => {
    expect(parseMaskWithPresets('@identity', presets).paths).toEqual(parseFieldMask(BUILT_IN_PRESETS[0]!.paths.join(',')).paths);
    const extended = parseMaskWithPresets('@mine, status.phase', presets);
    expect(extended.paths).toEqual(['metadata.labels', 'status.phase']);
    expect(expandPresets('status.phase', presets)).toBe('status.phase');
  });

  it('name an unknown preset at its position, with the closest name', () => {
    const e = errorOf('metadata.name, @readyness');
    expect(e.message).toContain('unknown preset "@readyness"; did you mean "@readiness"?');
    expect(e.position).toBe(15);
    expect(errorOf('@zzzz').message).toContain('presets are: @identity, @readiness');
  });

  it('keep the positions of errors in the paths written beside a preset', () => {
    const text = '@identity, status.phse';
    const e = errorOf(text);
    expect(text.slice(e.position)).toBe('phse');
    expect(e.message).toContain('did you mean "phase"?');
  });
});

describe('mask coverage', () => {
  it('tells a field kept whole from one kept in part and one left out', () => {
    const paths = ['metadata.name', 'status.containerStatuses.ready'];
    expect(coverage(paths, 'metadata.name')).toBe('all');
    expect(coverage(paths, 'status.containerStatuses.ready')).toBe('all');
    expect(coverage(paths, 'status.containerStatuses')).toBe('some');
    expect(coverage(paths, 'status')).toBe('some');
    expect(coverage(paths, 'metadata.namespace')).toBe('none');
    expect(coverage(paths, 'metadata.nameSuffix')).toBe('none');
    expect(coverage([], 'anything')).toBe('all');
  });

  it('knows when pods fetched with one mask hold all another selects', () => {
    expect(fetchedCovers([], ['metadata.name'])).toBe(true);
    expect(fetchedCovers(['metadata'], ['metadata.name'])).toBe(true);
    expect(fetchedCovers(['metadata.name'], ['metadata'])).toBe(false);
    expect(fetchedCovers(['metadata.name'], [])).toBe(false);
  });
});
