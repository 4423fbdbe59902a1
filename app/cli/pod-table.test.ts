import { describe, expect, it } from 'vitest';
import { kubectlAge } from './kubectl-age';
import { applyFieldMask, parseFieldMask } from '../mask/field-mask';
import type { PodTree } from '../pod/pod-tree';
import { formatTable, NOT_SELECTED, podTableRows, type PodTableLayout } from './pod-table';

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;

describe('kubectl AGE column', () => {
  it.each([
    [0, '0s'],
    [119 * s, '119s'],
    [2 * m, '2m'],
    [9 * m + 59 * s, '9m59s'],
    [10 * m + 30 * s, '10m'],
    [179 * m, '179m'],
    [3 * h, '3h'],
    [7 * h + 59 * m, '7h59m'],
    [8 * h + 5 * m, '8h'],
    [47 * h, '47h'],
    [48 * h, '2d'],
    [2 * d + 1 * h, '2d1h'],
    [8 * d + 3 * h, '8d'],
    [729 * d, '729d'],
    [730 * d, '2y'],
    [731 * d, '2y1d'],
    [9 * 365 * d, '9y'],
  ])('%i ms reads %s, as kubectl prints it', (ms, text) => {
    expect(kubectlAge(ms)).toBe(text);
  });

  it('shows a clock skewed into the future as 0s', () => {
    expect(kubectlAge(-5000)).toBe('0s');
  });
});

describe('table layout', () => {
  it('pads every column to its widest cell plus three spaces, without trailing blanks', () => {
    expect(formatTable([['A', 'BB', 'C'], ['long', 'x', '']])).toBe('A      BB   C\nlong   x');
  });
});

const NOW = Date.parse('2026-01-02T00:00:00Z');
const table = (pods: PodTree[], layout?: PodTableLayout, mask?: string) => {
  const parsed = mask === undefined ? undefined : parseFieldMask(mask);
  return podTableRows(parsed ? pods.map((p) => applyFieldMask(p, parsed)) : pods, NOW, parsed, layout);
};

describe('the pods table under a field mask', () => {
  const pod = {
    metadata: { namespace: 'shop', name: 'cart-0', uid: 'u1', creationTimestamp: '2026-01-01T00:00:00Z' },
    status: { phase: 'Running', podIP: '10.0.0.7', containerStatuses: [{ name: 'app', ready: true, restartCount: 2, state: { running: {} } }] },
  };

  it('has kubectl get pods -A columns', () => {
    expect(table([pod])).toEqual([
      ['NAMESPACE', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'],
      ['shop', 'cart-0', '1/1', 'Running', '2', '24h'],
    ]);
  });

  it('marks what the mask left out as <masked>, never as 0/0 ready or 0 restarts', () => {
    expect(table([pod], undefined, 'metadata.name,metadata.namespace,status.phase')[1]).toEqual(['shop', 'cart-0', NOT_SELECTED, 'Running', NOT_SELECTED, NOT_SELECTED]);
    expect(table([pod], undefined, 'metadata.name,metadata.namespace,status.containerStatuses.restartCount')[1]).toEqual([
      'shop',
      'cart-0',
      NOT_SELECTED,
      NOT_SELECTED,
      '2',
      NOT_SELECTED,
    ]);
  });

  it('marks -o wide cells the mask left out too', () => {
    expect(table([pod], { namespace: true, wide: true }, 'metadata.name,status.podIP')[1]!.slice(6)).toEqual(['10.0.0.7', NOT_SELECTED, NOT_SELECTED, NOT_SELECTED]);
  });
});

/** A pod with these containers' statuses (and, optionally, more of its status and spec). */
function podWith(status: Record<string, unknown>, spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}): PodTree {
  const containers = ((status.containerStatuses as { name: string }[] | undefined) ?? [{ name: 'app' }]).map((c) => ({ name: c.name }));
  return {
    metadata: { namespace: 'ns', name: 'p', creationTimestamp: '2026-01-01T00:00:00Z', ...metadata },
    spec: { containers, ...spec },
    status: { phase: 'Running', ...status },
  } as PodTree;
}

const running = (name = 'app', restartCount = 0) => ({ name, ready: true, restartCount, state: { running: { startedAt: '2026-01-01T00:00:00Z' } } });
const waiting = (reason: string, extra: Record<string, unknown> = {}) => ({ name: 'app', ready: false, restartCount: 0, state: { waiting: { reason } }, ...extra });
const terminated = (t: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ name: 'app', ready: false, restartCount: 0, state: { terminated: t }, ...extra });
const initSpec = (n: number) => ({ initContainers: Array.from({ length: n }, (_, i) => ({ name: `init-${i}` })) });
const initDone = (i: number) => ({ name: `init-${i}`, ready: false, restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed' } } });

// Each case as kubectl v1.32's printPod (pkg/printers/internalversion/printers.go) computes READY, STATUS and RESTARTS.
describe('STATUS, READY and RESTARTS as kubectl prints them', () => {
  const row = (pod: PodTree) => {
    const [, cells] = table([pod]);
    return { ready: cells![2], status: cells![3], restarts: cells![4] };
  };

  it('Running with every container ready', () => {
    expect(row(podWith({ containerStatuses: [running()] }))).toEqual({ ready: '1/1', status: 'Running', restarts: '0' });
  });

  it('CrashLoopBackOff, not Running, for a 0/1 pod restarting, with when it last restarted', () => {
    const crashing = waiting('CrashLoopBackOff', { restartCount: 250, lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: '2026-01-01T23:57:00Z' } } });
    expect(row(podWith({ containerStatuses: [crashing] }))).toEqual({ ready: '0/1', status: 'CrashLoopBackOff', restarts: '250 (3m ago)' });
  });

  it.each([
    ['ContainerCreating', waiting('ContainerCreating'), 'Pending'],
    ['ImagePullBackOff', waiting('ImagePullBackOff'), 'Pending'],
    ['ErrImagePull', waiting('ErrImagePull'), 'Pending'],
    ['CreateContainerConfigError', waiting('CreateContainerConfigError'), 'Pending'],
    ['Completed', terminated({ exitCode: 0, reason: 'Completed' }), 'Succeeded'],
    ['Error', terminated({ exitCode: 1, reason: 'Error' }), 'Failed'],
    ['OOMKilled', terminated({ exitCode: 137, reason: 'OOMKilled' }), 'Running'],
    ['Signal:9', terminated({ exitCode: 0, signal: 9 }), 'Failed'],
    ['ExitCode:3', terminated({ exitCode: 3 }), 'Failed'],
  ])('%s: a container state names the pod', (status, container, phase) => {
    expect(row(podWith({ phase, containerStatuses: [container] })).status).toBe(status);
  });

  it('Pending for a pod with no container status yet', () => {
    expect(row(podWith({ phase: 'Pending' }))).toEqual({ ready: '0/1', status: 'Pending', restarts: '0' });
  });

  it("the pod's own reason: Evicted, and SchedulingGated", () => {
    expect(row(podWith({ phase: 'Failed', reason: 'Evicted' })).status).toBe('Evicted');
    expect(row(podWith({ phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] })).status).toBe('SchedulingGated');
  });

  it('Init:N/M while init containers run, PodInitializing once they are done', () => {
    const initRunning = { name: 'init-1', ready: false, restartCount: 0, state: { running: {} } };
    expect(row(podWith({ phase: 'Pending', initContainerStatuses: [initDone(0), initRunning] }, initSpec(2))).status).toBe('Init:1/2');
    expect(row(podWith({ phase: 'Pending', initContainerStatuses: [{ ...initRunning, name: 'init-0' }] }, initSpec(1))).status).toBe('Init:0/1');
    const podInit = podWith({ phase: 'Pending', initContainerStatuses: [initDone(0)], containerStatuses: [waiting('PodInitializing')] }, initSpec(1));
    expect(row(podInit).status).toBe('PodInitializing');
  });

  it('Init:CrashLoopBackOff and Init:Error for a failing init container, with its restarts', () => {
    const crashing = { name: 'init-0', ready: false, restartCount: 4, state: { waiting: { reason: 'CrashLoopBackOff' } } };
    expect(row(podWith({ phase: 'Pending', initContainerStatuses: [crashing] }, initSpec(1)))).toEqual({ ready: '0/1', status: 'Init:CrashLoopBackOff', restarts: '4' });
    const failed = { name: 'init-0', ready: false, restartCount: 0, state: { terminated: { exitCode: 1, reason: 'Error' } } };
    expect(row(podWith({ phase: 'Failed', initContainerStatuses: [failed] }, initSpec(1))).status).toBe('Init:Error');
  });

  it('counts a started sidecar (restartable init container) in READY, and its restarts', () => {
    const spec = { initContainers: [{ name: 'proxy', restartPolicy: 'Always' }] };
    const sidecar = { name: 'proxy', ready: true, started: true, restartCount: 1, state: { running: {} } };
    expect(row(podWith({ initContainerStatuses: [sidecar], containerStatuses: [running('app', 2)] }, spec))).toEqual({ ready: '2/2', status: 'Running', restarts: '3' });
  });

  it('Running while one container still runs after another completed (NotReady if the pod is not Ready)', () => {
    const statuses = [running('a'), { ...terminated({ exitCode: 0, reason: 'Completed' }), name: 'b' }];
    expect(row(podWith({ containerStatuses: statuses, conditions: [{ type: 'Ready', status: 'True' }] })).status).toBe('Running');
    expect(row(podWith({ containerStatuses: statuses, conditions: [{ type: 'Ready', status: 'False' }] })).status).toBe('NotReady');
  });

  it('Terminating once deleted, unless it already finished; Unknown when its node was lost', () => {
    const deleting = { deletionTimestamp: '2026-01-01T23:59:00Z' };
    expect(row(podWith({ containerStatuses: [running()] }, {}, deleting)).status).toBe('Terminating');
    expect(row(podWith({ phase: 'Succeeded', containerStatuses: [terminated({ exitCode: 0, reason: 'Completed' })] }, {}, deleting)).status).toBe('Completed');
    expect(row(podWith({ reason: 'NodeLost', containerStatuses: [running()] }, {}, deleting)).status).toBe('Unknown');
  });
});

describe('-o wide and -n', () => {
  const pod = podWith(
    { podIP: '10.0.0.7', podIPs: [{ ip: '10.0.0.7' }, { ip: 'fd00::7' }], nominatedNodeName: 'w2', containerStatuses: [running()], conditions: [{ type: 'example.com/gate', status: 'True' }] },
    { nodeName: 'w1', readinessGates: [{ conditionType: 'example.com/gate' }, { conditionType: 'example.com/other' }] },
  );

  it("adds kubectl's IP, NODE, NOMINATED NODE and READINESS GATES", () => {
    expect(table([pod], { namespace: true, wide: true })).toEqual([
      ['NAMESPACE', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES'],
      ['ns', 'p', '1/1', 'Running', '0', '24h', '10.0.0.7', 'w1', 'w2', '1/2'],
    ]);
  });

  it('shows <none> where a pod has no IP, node, nominated node or gates', () => {
    expect(table([podWith({ phase: 'Pending' })], { namespace: true, wide: true })[1]!.slice(6)).toEqual(['<none>', '<none>', '<none>', '<none>']);
  });

  it('leaves out the NAMESPACE column for one namespace, as kubectl -n does', () => {
    expect(table([pod], { namespace: false, wide: false })).toEqual([
      ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'],
      ['p', '1/1', 'Running', '0', '24h'],
    ]);
  });
});
