import type { NodeInfo } from '../../app/contract/nodes';
import { createFakeBridge } from '../../app/contract/testing/fake-bridge';
import { useKeyListener } from '../keys/use-shortcuts';
import { AppModel } from '../state/app-model';
import { mountForTest, record, testCase } from '../testing/test-page';
import { NodesSidebar } from './NodesSidebar';
import { useModelVersion } from './use-model';

// The sidebar over a model on the fake bridge, removable for real: six nodes in two groups and a file, or
// (case=fleet) a thousand nodes in five groups and none, in every state, in a window's frame.
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
const six: NodeInfo[] = [
  node('w1', live, { kind: 'ssh', host: 'worker-1', group: 'workers' }),
  node('w2', live, { kind: 'ssh', host: 'worker-2', group: 'workers' }),
  node('w3', { phase: 'error', cause: 'Permission denied (publickey).', nextStep: 'Add your key to the node.' }, { kind: 'ssh', host: 'worker-3', group: 'workers' }),
  node('g1', live, { kind: 'ssh', host: 'gpu-1', group: 'gpu' }),
  node('g2', { phase: 'disconnected' }, { kind: 'ssh', host: 'gpu-2', group: 'gpu' }),
  node('f1', { phase: 'offline', takenAt: null, origin: 'snapshot file' }, { kind: 'snapshot', file: '/tmp/pods.json' }),
];

/** Groups of the thousand, and how many nodes each has ('' : none); of every 50 nodes, 3 connect and 1 failed. */
const FLEET_GROUPS: [string, number][] = [
  ['', 150],
  ['edge', 200],
  ['gpu', 40],
  ['infra', 10],
  ['workers-a', 300],
  ['workers-b', 300],
];
function thousand(): NodeInfo[] {
  const out: NodeInfo[] = [];
  for (const [group, count] of FLEET_GROUPS) {
    for (let i = 1; i <= count; i++) {
      const host = `${group || 'node'}-${String(i).padStart(3, '0')}`;
      const state: NodeInfo['state'] =
        i % 50 === 7 ? { phase: 'error', cause: 'ssh: connect to host 10.0.0.7 port 22: Connection timed out', nextStep: 'Check that the node is up.' } : i % 50 < 3 ? { phase: 'connecting', attempt: 1 } : live;
      out.push(node(`n-${out.length}`, state, { kind: 'ssh', host, ...(group ? { group } : {}) }));
    }
  }
  return out;
}

const nodes: NodeInfo[] = testCase === 'fleet' ? thousand() : six;
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
  useKeyListener();
  if (model.nodes.length === 0) return <p>loading</p>;
  const sidebar = (
    <NodesSidebar
      nodes={model.nodes}
      selectedId={testCase === 'fleet' ? null : 'w1'}
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
  return testCase === 'fleet' ? (
    <div className="app">
      {sidebar}
      <main className="muted small node-none">the workspace</main>
    </div>
  ) : (
    sidebar
  );
}

void model.start();
mountForTest(<Sidebar />);
