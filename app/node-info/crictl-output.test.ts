import { describe, expect, it } from 'vitest';
import { parseCrictlContainers, parseCrictlVersion } from './crictl-output';

describe('crictl output', () => {
  it('reads crictl version', () => {
    const text = 'Version:  0.1.0\nRuntimeName:  containerd\nRuntimeVersion:  v1.7.13\nRuntimeApiVersion:  v1\n';
    expect(parseCrictlVersion(text)).toEqual({ name: 'containerd', version: 'v1.7.13', apiVersion: 'v1', crictlVersion: '0.1.0' });
    expect(() => parseCrictlVersion('FATA[0000] connect: no such file')).toThrow(/no RuntimeName/);
  });

  it('reads crictl ps -a -o json with the pod each container belongs to', () => {
    const json = JSON.stringify({
      containers: [
        {
          id: 'abc123', podSandboxId: 'sb1', metadata: { name: 'web', attempt: 2 }, image: { image: 'nginx:1.27' }, state: 'CONTAINER_RUNNING',
          labels: { 'io.kubernetes.pod.uid': 'u1', 'io.kubernetes.pod.namespace': 'default', 'io.kubernetes.pod.name': 'web-0', 'io.kubernetes.container.name': 'web' },
        },
        { id: 'def456', metadata: { name: 'stray', attempt: 0 }, state: 'CONTAINER_EXITED' },
      ],
    });
    expect(parseCrictlContainers(json)).toEqual([
      { id: 'abc123', name: 'web', attempt: 2, state: 'CONTAINER_RUNNING', image: 'nginx:1.27', podSandboxId: 'sb1', podUid: 'u1', podNamespace: 'default', podName: 'web-0' },
      { id: 'def456', name: 'stray', attempt: 0, state: 'CONTAINER_EXITED' },
    ]);
  });

  it('takes an empty runtime as no containers, and names output that is not the list', () => {
    expect(parseCrictlContainers('{}')).toEqual([]);
    expect(parseCrictlContainers('{"containers":null}')).toEqual([]);
    expect(() => parseCrictlContainers('CONTAINER IMAGE')).toThrow(/did not print JSON/);
    expect(() => parseCrictlContainers('{"containers":[{"metadata":{}}]}')).toThrow(/containers\[0\] has no id/);
  });
});
