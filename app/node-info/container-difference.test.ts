import { describe, expect, it } from 'vitest';
import { containerDifference } from './container-difference';

const pod = (uid: string, statuses: unknown[], init: unknown[] = []) => ({
  metadata: { uid, namespace: 'default', name: `pod-${uid}` },
  status: { containerStatuses: statuses, initContainerStatuses: init },
});

describe('containerDifference', () => {
  it("names runtime containers no pod names, and pods' current containers the runtime lacks", () => {
    const runtime = [
      { id: 'aaa', name: 'web' },
      { id: 'old', name: 'web' },
      { id: 'init1', name: 'setup' },
      { id: 'leak', name: 'ghost', podUid: 'gone' },
    ];
    const pods = [
      pod('u1', [{ name: 'web', containerID: 'containerd://aaa', lastState: { terminated: { containerID: 'containerd://old' } } }], [{ name: 'setup', containerID: 'containerd://init1' }]),
      pod('u2', [{ name: 'db', containerID: 'cri-o://bbb', lastState: { terminated: { containerID: 'cri-o://collected' } } }, { name: 'waiting' }]),
    ];
    const d = containerDifference(runtime, pods);
    expect(d.runtimeOnly.map((c) => c.id)).toEqual(['leak']);
    expect(d.kubeletOnly).toEqual([{ id: 'bbb', podUid: 'u2', podNamespace: 'default', podName: 'pod-u2', container: 'db', previous: false }]);
    expect(d).toMatchObject({ runtimeContainers: 4, kubeletContainers: 3 });
  });
});
