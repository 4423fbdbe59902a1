import type { NodeInfo } from '../../app/contract/nodes';
import { createFakeBridge } from '../../app/contract/testing/fake-bridge';
import { AppModel } from '../state/app-model';
import { mountForTest, record } from '../testing/test-page';
import { NodesSidebar } from './NodesSidebar';
import { useModelVersion } from './use-model';

// The sidebar over a model on the fake bridge: six nodes in two groups and a file, removable for real.
const node = (id: string, state: NodeInfo['state'], spec: NodeInfo['spec'], podCount = 0): NodeInfo => ({
  id,
  label: spec.kind === 'ssh' ? spec.host : id,
  simulated: false,
  spec,
  state,
  mask: '',
  maskPaths: [],
  maskHonoured: null,
  podCount,
});
const live = { phase: 'live', since: Date.now() } as const;
const nodes: NodeInfo[] = [
  node('w1', live, { kind: 'ssh', host: 'worker-1', group: 'workers' }),
  node('w2', live, { kind: 'ssh', host: 'worker-2', group: 'workers' }),
  node('w3', { phase: 'error', cause: 'Permission denied (publickey).', nextStep: 'Add your key to the node.' }, { kind: 'ssh', host: 'worker-3', group: 'workers' }),
  node('g1', live, { kind: 'ssh', host: 'gpu-1', group: 'gpu' }),
  node('g2', { phase: 'disconnected' }, { kind: 'ssh', host: 'gpu-2', group: 'gpu' }),
  node('f1', { phase: 'offline', takenAt: null, origin: 'snapshot file' }, { kind: 'snapshot', file: '/tmp/pods.json' }),
];
const bridge = createFakeBridge({
  'nodes.list': () => nodes,
  'prompts.pending': () => [],
  'pods.rows': () => ({ seq: 0, rows: [] }),
  'nodes.remove': ({ nodeId }) => {
    nodes.splice(
      nodes.findIndex((n) => n.id === nodeId),
      1,
    );
    return {};
  },
});
const model = new AppModel(bridge, { requestFrame: (cb) => requestAnimationFrame(cb) });

function Sidebar() {
  useModelVersion(model);
  if (model.nodes.length === 0) return <p>loading</p>;
  return (
    <NodesSidebar
      nodes={model.nodes}
      selectedId="w1"
      podCount={() => 3}
      onSelect={record('select')}
      checkedIds={[]}
      onToggle={record('toggle')}
      onSelectMany={record('selectMany')}
      onAdd={record('add')}
      onAddMany={record('addMany')}
      onStartDemo={record('startDemo')}
      onConnect={record('connect')}
      onDisconnect={record('disconnect')}
      onRemove={(id) => void model.removeNode(id)}
      onEdit={record('edit')}
      onOpenFiles={record('openFiles')}
    />
  );
}

void model.start();
mountForTest(<Sidebar />);
