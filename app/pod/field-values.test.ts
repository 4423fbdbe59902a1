import { describe, expect, it } from 'vitest';
import { fieldValues } from './field-values';

const pod = {
  metadata: { name: 'web-1', labels: { app: 'web' }, ownerReferences: [{ kind: 'ReplicaSet', name: 'web-5d' }] },
  spec: { containers: [{ name: 'app', args: ['--a', '--b'] }, { name: 'sidecar' }], priority: 0 },
  status: { containerStatuses: [{ restartCount: 3 }, { restartCount: 0 }], podIP: '' },
};

describe('fieldValues', () => {
  it('reads a field by its mask path, through lists, as text', () => {
    expect(fieldValues(pod, 'metadata.name')).toEqual(['web-1']);
    expect(fieldValues(pod, 'status.containerStatuses.restartCount')).toEqual(['3', '0']);
    expect(fieldValues(pod, 'metadata.ownerReferences.kind')).toEqual(['ReplicaSet']);
    expect(fieldValues(pod, 'spec.containers.args')).toEqual(['--a', '--b']);
    expect(fieldValues(pod, 'metadata.labels')).toEqual(['{"app":"web"}']);
  });

  it('tells a zero or an empty value from a field the pod does not have', () => {
    expect(fieldValues(pod, 'spec.priority')).toEqual(['0']);
    expect(fieldValues(pod, 'status.podIP')).toEqual(['']);
    expect(fieldValues(pod, 'spec.priorityClassName')).toBeNull();
    expect(fieldValues(pod, 'status.initContainerStatuses.restartCount')).toBeNull();
    expect(fieldValues(pod, 'metadata.constructor')).toBeNull();
  });
});
