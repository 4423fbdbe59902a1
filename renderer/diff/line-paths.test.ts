import { describe, expect, it } from 'vitest';
import { formatPath } from '../../app/diff/diff-path';
import { jsonLinePaths } from './line-paths';

describe('jsonLinePaths', () => {
  it('names each line by its path, list elements by identity, closing lines by their block', () => {
    const doc = { metadata: { resourceVersion: '10', labels: { 'app.kubernetes.io/name': 'api' } }, spec: { containers: [{ name: 'app', args: ['-v', '2'] }], volumes: [] } };
    const text = JSON.stringify(doc, null, 4);
    expect(jsonLinePaths(text, doc).map(formatPath)).toEqual([
      '',
      'metadata',
      'metadata.resourceVersion',
      'metadata.labels',
      'metadata.labels["app.kubernetes.io/name"]',
      'metadata.labels',
      'metadata',
      'spec',
      'spec.containers',
      'spec.containers[name=app]',
      'spec.containers[name=app].name',
      'spec.containers[name=app].args',
      'spec.containers[name=app].args[0]',
      'spec.containers[name=app].args[1]',
      'spec.containers[name=app].args',
      'spec.containers[name=app]',
      'spec.containers',
      'spec.volumes',
      'spec',
      '',
    ]);
  });
});
