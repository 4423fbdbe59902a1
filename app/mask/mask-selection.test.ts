import { describe, expect, it } from 'vitest';
import { applyFieldMask, parseFieldMask } from './field-mask';
import { coverage } from './mask-coverage';
import { choosePath, dropPath, unionPaths } from './mask-selection';
import { maskTreeNode } from './mask-tree';

describe('mask selection', () => {
  it('chooses a field with everything under it, and keeps the paths canonical', () => {
    expect(choosePath(['status.containerStatuses.ready'], 'status.containerStatuses')).toEqual(['status.containerStatuses']);
    expect(choosePath([], 'metadata.name')).toEqual(['metadata.name']);
  });

  it('drops a field inside a chosen one and keeps its siblings', () => {
    const paths = dropPath(['metadata'], 'metadata.managedFields');
    expect(paths).not.toContain('metadata');
    expect(paths).toContain('metadata.name');
    expect(paths).toContain('metadata.labels');
    expect(coverage(paths, 'metadata.managedFields')).toBe('none');
    expect(coverage(paths, 'metadata')).toBe('some');
    const pod = { metadata: { name: 'a', labels: { x: 'y' }, managedFields: [{ manager: 'kubelet' }] } };
    expect(applyFieldMask(pod, parseFieldMask(paths.join(',')))).toEqual({ metadata: { name: 'a', labels: { x: 'y' } } });
  });

  it('drops a deep field through lists, leaving the rest of each level', () => {
    const paths = dropPath(['status.containerStatuses'], 'status.containerStatuses.state.waiting');
    expect(coverage(paths, 'status.containerStatuses.state.waiting')).toBe('none');
    expect(coverage(paths, 'status.containerStatuses.state.running')).toBe('all');
    expect(coverage(paths, 'status.containerStatuses.ready')).toBe('all');
    expect(dropPath(['metadata.name', 'status.phase'], 'metadata.name')).toEqual(['status.phase']);
    expect(dropPath(['metadata.name'], 'metadata.name')).toEqual([]);
  });

  it('adds presets to what is chosen', () => {
    expect(unionPaths(['metadata.name'], ['metadata.name', 'status.phase'])).toEqual(['metadata.name', 'status.phase']);
  });

  it('treats a map as a leaf: metadata.labels has no keys to choose', () => {
    expect(maskTreeNode('metadata.labels')).toMatchObject({ map: true, children: [], type: '<map[string]string>' });
    expect(maskTreeNode('status.containerStatuses')).toMatchObject({ list: true, type: '<[]ContainerStatus>' });
    expect(maskTreeNode('metadata.labels.app')).toBeUndefined();
    // The text form the builder shares with the app core and the CLI refuses a key just the same.
    expect(() => parseFieldMask('metadata.labels.app')).toThrow('"metadata.labels" is a map, which can only be selected whole');
  });
});
