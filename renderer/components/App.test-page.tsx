import type { AddNodeSpec, NodeInfo } from '../../app/contract/nodes';
import { createFakeBridge } from '../../app/contract/testing/fake-bridge';
import { testRow } from '../../app/contract/testing/test-row';
import { AppModel } from '../state/app-model';
import { mountForTest } from '../testing/test-page';
import { App } from './App';

// The whole window over a fake app core that starts with no node: the welcome, the demo node, nodes
// removed and brought back, files dropped (opened as Electron's preload opens them).
const nodes: NodeInfo[] = [];
let next = 0;
const make = (spec: NodeInfo['spec'], label: string): NodeInfo => {
  const state: NodeInfo['state'] = spec.kind === 'snapshot' ? { phase: 'offline', takenAt: null, origin: spec.file } : { phase: 'live', since: Date.now() };
  const node: NodeInfo = { id: `n${++next}`, label, simulated: spec.kind === 'demo', spec, state, mask: '', maskPaths: [], maskHonoured: null, podCount: 2 };
  nodes.push(node);
  return node;
};
const add = (spec: AddNodeSpec) => (spec.kind === 'unix' ? make(spec, spec.label ?? spec.socketPath) : make({ ...spec, kind: 'ssh' }, spec.label ?? spec.host));
const bridge = createFakeBridge({
  'app.info': () => ({ version: 'test', mode: 'electron', canPickFiles: true, canOpenFiles: true, defaultExportDir: '/tmp', sshConfigFile: '~/.ssh/config' }),
  'nodes.list': () => nodes,
  'prompts.pending': () => [],
  'notices.list': () => [],
  'nodes.metrics': () => null,
  'pods.rows': ({ nodeId }) => ({ seq: 1, rows: [testRow({ uid: `${nodeId}-a`, name: `${nodeId}-web` }), testRow({ uid: `${nodeId}-b`, name: `${nodeId}-db` })] }),
  'nodes.startDemo': () => make({ kind: 'demo' }, 'Demo node (simulated)'),
  'nodes.add': add,
  'nodes.remove': ({ nodeId }) => {
    nodes.splice(
      nodes.findIndex((n) => n.id === nodeId),
      1,
    );
    return {};
  },
  'sshHosts.list': () => [],
});
// Electron's preload opens dropped files by their paths; here they become snapshot sources at once.
window.nodescopeFiles = {
  open: async (files) => ({ status: 'opened', nodes: files.map((f) => make({ kind: 'snapshot', file: `/home/operator/${f.name}` }, f.name)) }),
};
const model = new AppModel(bridge);
void model.start();
mountForTest(<App model={model} />);
