import type { NodeInfo } from '../../app/contract/nodes';
import { ContractError } from '../../app/contract/errors';
import { createFakeBridge } from '../../app/contract/testing/fake-bridge';
import { AppModel } from '../state/app-model';
import { mountForTest, record, testCase } from '../testing/test-page';
import { AddManyDialog } from './AddManyDialog';
import { AddNodeDialog } from './AddNodeDialog';
import { EditNodeDialog } from './EditNodeDialog';
import { useModelVersion } from './use-model';

// The dialogs that change the node list, over a model on the fake bridge (?case=add|edit|many); the
// node list is printed beside them, so a test sees what reached the model.
const nodes: NodeInfo[] = [];
const make = (id: string, spec: NodeInfo['spec']): NodeInfo => ({
  id,
  label: spec.kind === 'ssh' ? (spec.label ?? spec.host) : id,
  simulated: false,
  spec,
  state: { phase: 'connecting', attempt: 1 },
  mask: '',
  maskPaths: [],
  maskHonoured: null,
  podCount: 0,
});
if (testCase === 'edit') nodes.push(make('w1', { kind: 'ssh', host: 'worker-1', user: 'core', group: 'workers' }));
const bridge = createFakeBridge({
  'nodes.list': () => nodes,
  'prompts.pending': () => [],
  'pods.rows': () => ({ seq: 0, rows: [] }),
  'app.info': () => ({ version: 'test', mode: 'browser', canPickFiles: false, canOpenFiles: false, defaultExportDir: '/tmp', sshConfigFile: '/etc/nodescope/ssh_config' }),
  'sshHosts.list': () => [
    { alias: 'bastion', hostName: 'bastion.example.internal', jumpHostFor: 2 },
    { alias: 'worker-1', hostName: '10.0.0.11', proxyJump: 'bastion' },
    { alias: 'worker-2', hostName: '10.0.0.12', proxyJump: 'bastion' },
  ],
  'sshHosts.expand': ({ text }) => ({ hosts: text.includes('worker-*') ? ['worker-1', 'worker-2'] : [], problems: [] }),
  'nodes.add': (spec) => {
    if (spec.kind !== 'unix' && spec.host === 'refused') throw new ContractError('invalid-input', 'A node named refused is already in the list.', 'Give it another display name.');
    const node = make(`n${nodes.length + 1}`, spec.kind === 'unix' ? spec : { ...spec, kind: 'ssh' });
    nodes.push(node);
    return node;
  },
  'nodes.addMany': ({ nodes: specs }) =>
    specs.map((spec) => {
      const node = make(`n${nodes.length + 1}`, spec.kind === 'unix' ? spec : { ...spec, kind: 'ssh' });
      nodes.push(node);
      return node;
    }),
  'nodes.update': ({ nodeId, spec }) => {
    const i = nodes.findIndex((n) => n.id === nodeId);
    const before = nodes[i]!;
    nodes[i] = make(nodeId, spec.kind === 'unix' ? spec : { ...spec, kind: 'ssh' });
    return { node: nodes[i]!, historyCleared: before.spec.kind === 'ssh' && spec.kind !== 'unix' && before.spec.host !== spec.host };
  },
});
const model = new AppModel(bridge, { requestFrame: (cb) => requestAnimationFrame(cb) });

function Page() {
  useModelVersion(model);
  return (
    <>
      <ul aria-label="Nodes in the model">
        {model.nodes.map((n) => (
          <li key={n.id}>{`${n.label} ${n.spec.kind === 'ssh' ? (n.spec.group ?? '') : ''}`.trim()}</li>
        ))}
      </ul>
      {testCase === 'add' && <AddNodeDialog model={model} onClose={record('close')} onAdded={(n) => record('added')(n.label)} />}
      {testCase === 'edit' && <EditNodeDialog model={model} node={model.node('w1')} onClose={record('close')} onSaved={record('saved')} />}
      {testCase === 'many' && <AddManyDialog model={model} onClose={record('close')} onAdded={(added) => record('added')(added.map((n) => n.label))} />}
    </>
  );
}

void model.start();
mountForTest(<Page />);
