import type { PodDetail as Detail } from '../../app/contract/pods';
import { ContractError } from '../../app/contract/errors';
import { createFakeBridge } from '../../app/contract/testing/fake-bridge';
import { testRow } from '../../app/contract/testing/test-row';
import { podMetricsLookup } from '../../app/pod/view/pod-metrics';
import { mountForTest, record, testCase } from '../testing/test-page';
import { PodDetail } from './PodDetail';

// One pod's detail on the fake bridge: ?case=missing makes pods.get fail, ?case=logs opens on the Logs tab,
// ?case=budget gives a history whose earlier versions went for the limits and for the app's memory budget.
const json = `${JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'cart-1', namespace: 'shop', uid: 'a' }, spec: { nodeName: 'worker-1' } }, null, 4)}\n`;
const detail: Detail = {
  json,
  summary: {
    namespace: 'shop',
    name: 'cart-1',
    uid: 'a',
    phase: 'Running',
    status: 'Running',
    node: 'worker-1',
    podIP: '10.0.0.1',
    hostIP: '192.168.1.10',
    qosClass: 'Burstable',
    serviceAccount: 'default',
    restartPolicy: 'Always',
    priorityClassName: '',
    createdAt: '2026-01-01T00:00:00Z',
    startedAt: '2026-01-01T00:00:01Z',
    ownerKind: 'ReplicaSet',
    ownerName: 'cart-5d9f',
    isStatic: false,
    labels: { app: 'cart' },
    annotations: {},
    conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:05Z' }],
    containers: [
      {
        kind: 'regular',
        name: 'cart',
        image: 'registry.example.internal/shop/cart:1.4.2',
        state: { kind: 'running', startedAt: '2026-01-01T00:00:02Z' },
        ready: true,
        restarts: 3,
        probes: [{ kind: 'readiness', description: 'http GET :8080/ready every 5s' }],
        requests: { cpu: '100m' },
        limits: { memory: '256Mi' },
        ports: ['8080/TCP'],
      },
    ],
    volumes: [],
  },
  notSelected: [],
  unknownFields: [],
};
const bridge = createFakeBridge({
  'pods.get': () => {
    if (testCase === 'missing') throw new ContractError('not-found', 'No pod a on worker-1: it was deleted and its history is gone.');
    return detail;
  },
  'pods.history': () => ({
    versions: [
      { id: 1, time: Date.now() - 60_000, event: 'LISTED', change: 'listed' },
      { id: 2, time: Date.now() - 5_000, event: 'MODIFIED', change: 'restarts 2 → 3' },
    ],
    ...(testCase === 'budget' ? { trimmed: 5, trimmedForBudget: 3 } : { trimmed: 0 }),
    deleted: false,
    limits: { perPod: 50, totalBytes: 64 * 1024 ** 2, deletedRetentionMs: 600_000 },
  }),
  'pods.version': () => detail,
  'logs.read': () => ({ status: 'unavailable', message: 'This test page has no log files.', nextStep: 'Container logs show in the app.' }),
  'logs.follow': () => ({ status: 'unavailable', message: 'This test page has no log files.', nextStep: 'Container logs show in the app.' }),
});

mountForTest(
  <PodDetail
    bridge={bridge}
    nodeId="n1"
    uid="a"
    row={testRow({ uid: 'a', namespace: 'shop', name: 'cart-1', restarts: 3 })}
    metrics={podMetricsLookup(undefined, false)({ uid: 'a', namespace: 'shop', name: 'cart-1' })}
    onClose={record('close')}
    onCompareWith={record('compareWith')}
    logsRequest={testCase === 'logs' ? 1 : 0}
  />,
);
