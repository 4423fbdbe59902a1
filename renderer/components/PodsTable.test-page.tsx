import { useMemo, useState } from 'react';
import type { NodeInfo } from '../../app/contract/nodes';
import type { PodDeltas } from '../../app/contract/pods';
import { createFakeBridge, type FakeBridge } from '../../app/contract/testing/fake-bridge';
import { testRow } from '../../app/contract/testing/test-row';
import { parseFilter } from '../../app/pod/view/filter-language';
import type { SortOrder } from '../filter/sort-rows';
import { AppModel } from '../state/app-model';
import { podMetricsLookup } from '../../app/pod/view/pod-metrics';
import { mountForTest, record } from '../testing/test-page';
import { FollowPods } from './FollowPods';
import { PodsTable } from './PodsTable';
import { useModelVersion } from './use-model';

declare global {
  interface Window {
    /** The fake bridge the table's model listens to. */
    bridge: FakeBridge;
    /** Hands a pod batch to the model's watch of its node (pods.watch), as the app core does. */
    pushPods(batch: PodDeltas): void;
  }
}

// The table over a model on the fake bridge: one live node of five pods; ?filter= filters them.
const node: NodeInfo = {
  id: 'n1',
  label: 'worker-1',
  simulated: false,
  spec: { kind: 'ssh', host: 'worker-1' },
  state: { phase: 'live', since: Date.now() },
  mask: '',
  maskPaths: [],
  maskHonoured: null,
  podCount: 5,
};
const rows = [
  testRow({ uid: 'a', namespace: 'shop', name: 'cart-1', restarts: 3 }),
  testRow({ uid: 'b', namespace: 'shop', name: 'cart-2', status: 'CrashLoopBackOff', ready: 0, restarts: 250 }),
  testRow({ uid: 'c', namespace: 'kube-system', name: 'etcd-worker-1', isStatic: true, ownerKind: 'Node', ownerName: 'worker-1' }),
  testRow({ uid: 'd', namespace: 'kube-system', name: 'kube-proxy-x1', ownerKind: 'DaemonSet', ownerName: 'kube-proxy' }),
  testRow({ uid: 'e', namespace: 'search', name: 'indexer-0', phase: 'Pending', status: 'Pending', ready: 0 }),
];
const watching = new Map<string, (batch: PodDeltas) => void>();
window.bridge = createFakeBridge({
  'nodes.list': () => [node],
  'prompts.pending': () => [],
  'pods.rows': () => ({ seq: 1, rows }),
  'pods.watch': ({ nodeId }, call) => new Promise(() => watching.set(nodeId, call.progress)),
});
window.pushPods = (batch) => watching.get(batch.nodeId)?.(batch);
const model = new AppModel(window.bridge, { requestFrame: (cb) => requestAnimationFrame(cb) });
const filterText = new URLSearchParams(window.location.search).get('filter') ?? '';

function Table() {
  useModelVersion(model);
  const [order, setOrder] = useState<SortOrder>({ key: 'namespace', descending: false });
  const [selected, setSelected] = useState<string | null>(null);
  const filter = useMemo(() => parseFilter(filterText), []);
  const metricsOf = useMemo(() => podMetricsLookup(undefined, false), []);
  return (
    <FollowPods model={model}>
      {() => (
        <PodsTable
          rows={model.pods.view(node.id, filter, order, metricsOf)}
          totalCount={model.pods.count(node.id)}
          order={order}
          onSort={(key) => setOrder({ key, descending: order.key === key && !order.descending })}
          selectedUid={selected}
          onSelect={(uid) => {
            setSelected(uid);
            record('select')(uid);
          }}
          onOpen={record('open')}
          changedAt={(uid) => model.pods.changedAt(node.id, uid)}
          lastChange={(uid) => model.pods.lastChange(node.id, uid)}
          emptyText={model.pods.count(node.id) > 0 ? 'No pod matches the filter.' : 'No pods on this node.'}
          notSelected={new Set()}
          mask=""
          metricsOf={metricsOf}
          noMetrics
          manySources={false}
        />
      )}
    </FollowPods>
  );
}

void model.start();
mountForTest(<Table />);
