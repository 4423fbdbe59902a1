import { describe, expect, it } from 'vitest';
import type { NodeContext } from './node-context';
import { nodeContextText } from './node-context-text';

describe('nodeContextText', () => {
  it('shows each part read, and each part not read with why and what to do, never a made-up value', () => {
    const c: NodeContext = {
      process: { from: 'pgrep', value: { pid: 812, binary: '/usr/bin/kubelet' } },
      version: { from: 'kubelet --version', value: 'v1.37.2' },
      health: { from: 'GET http://127.0.0.1:10248/healthz', value: { healthy: true, status: 200, body: 'ok' } },
      config: { error: '`cat -- /var/lib/kubelet/config.yaml` failed on the node: Permission denied', nextStep: 'This needs root on the node.' },
      featureGates: { from: '--feature-gates', value: { gates: { Foo: true }, podsApi: { enabled: true, why: 'not set: on by default from Kubernetes 1.37' } } },
      runtime: { error: 'crictl failed' },
      journal: { from: 'journalctl', value: { unit: { unit: 'kubelet', loadState: 'loaded', activeState: 'active', subState: 'running' }, lines: [{ time: '2026-11-27T21:00:01+0000', host: 'n', identifier: 'kubelet', pid: 812, message: 'started' }] } },
      containers: { from: 'crictl', value: { runtimeContainers: 2, kubeletContainers: 1, runtimeOnly: [{ id: 'abcdef0123456789', name: 'old', state: 'CONTAINER_EXITED' }], kubeletOnly: [] } },
      allocatable: { from: 'PodResources on /pr.sock', value: { cpuIds: [2, 3], memory: [{ type: 'hugepages-2Mi', numaNodes: [0, 1], bytes: 2 ** 30 }], devices: [{ resource: 'nvidia.com/gpu', count: 2, numaNodes: [] }] } },
    };
    expect(nodeContextText(c)).toBe([
      'KUBELET        v1.37.2 (pid 812, /usr/bin/kubelet)',
      'HEALTH         ok (GET http://127.0.0.1:10248/healthz)',
      'CONFIG         not read: `cat -- /var/lib/kubelet/config.yaml` failed on the node: Permission denied',
      '               This needs root on the node.',
      'FEATURE GATES  Foo=true',
      'PODS API       on: not set: on by default from Kubernetes 1.37',
      'RUNTIME        not read: crictl failed',
      'UNIT           kubelet (active/running)',
      "CONTAINERS     runtime 2, kubelet 1; 1 only in the runtime, 0 only in the kubelet's pods",
      '  runtime only: abcdef0123456 old CONTAINER_EXITED no pod labels',
      'ALLOCATABLE    2 CPU ids: 2,3 (PodResources on /pr.sock)',
      '  memory: hugepages-2Mi on NUMA 0,1: 1.0 GiB (1073741824 bytes)',
      '  device: nvidia.com/gpu: 2',
      '',
      'JOURNAL (journalctl -u kubelet, last 1 lines)',
      '2026-11-27T21:00:01+0000 kubelet[812]: started',
    ].join('\n'));
  });
});
