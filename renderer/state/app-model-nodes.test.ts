import { describe, expect, it } from 'vitest';
import type { AddNodeSpec, NodeInfo } from '../../app/contract/nodes';
import { createFakeBridge } from '../../app/contract/testing/fake-bridge';
import { AppModel } from './app-model';

/** An app core of nodes in memory: requests answer with the records they made, as the hub does. */
function core() {
  const nodes: NodeInfo[] = [];
  let next = 0;
  const make = (spec: NodeInfo['spec'], label: string): NodeInfo => {
    const node: NodeInfo = { id: `n${++next}`, label, simulated: spec.kind === 'demo', spec, state: { phase: 'connecting', attempt: 1 }, mask: '', maskPaths: [], maskHonoured: null, podCount: 0 };
    nodes.push(node);
    return node;
  };
  const add = (spec: AddNodeSpec) => make(spec.kind === 'unix' ? { ...spec } : { ...spec, kind: 'ssh' }, spec.label ?? (spec.kind === 'unix' ? spec.socketPath : spec.host));
  const bridge = createFakeBridge({
    'nodes.list': () => nodes,
    'prompts.pending': () => [],
    'pods.rows': () => ({ seq: 0, rows: [] }),
    'nodes.add': add,
    'nodes.addMany': ({ nodes: specs }) => specs.map(add),
    'nodes.startDemo': () => make({ kind: 'demo' }, 'demo'),
    'nodes.update': ({ nodeId, spec }) => {
      const i = nodes.findIndex((n) => n.id === nodeId);
      nodes[i] = { ...nodes[i]!, spec: { ...spec, kind: 'ssh' } as NodeInfo['spec'], label: spec.label ?? nodes[i]!.label };
      return { node: nodes[i]!, historyCleared: false };
    },
    'nodes.remove': ({ nodeId }) => {
      nodes.splice(
        nodes.findIndex((n) => n.id === nodeId),
        1,
      );
      return {};
    },
    'nodes.setMask': () => ({ ok: true, paths: [] }),
    'sources.open': () => ({ status: 'cancelled' }),
  });
  const model = new AppModel(bridge, { requestFrame: (cb) => cb() });
  return { bridge, model, nodes };
}

describe('AppModel: the one writer of the node list', () => {
  it('holds an added node as soon as the request answers, before any event', async () => {
    const { model } = core();
    await model.start();
    const added = await model.addNode({ kind: 'ssh', host: 'worker-1' });
    expect(model.nodes).toEqual([added]);
    const many = await model.addNodes([{ kind: 'ssh', host: 'worker-2' }, { kind: 'ssh', host: 'worker-3' }]);
    expect(model.nodes.map((n) => n.label)).toEqual(['worker-1', 'worker-2', 'worker-3']);
    expect(many.map((n) => n.label)).toEqual(['worker-2', 'worker-3']);
  });

  it('tells its views of each change to the list', async () => {
    const { model } = core();
    await model.start();
    let versions = 0;
    model.subscribe(() => versions++);
    await model.startDemo();
    expect(versions).toBeGreaterThan(0);
  });

  it('edits a node in place and keeps its place in the list', async () => {
    const { model } = core();
    await model.start();
    const [a] = await model.addNodes([{ kind: 'ssh', host: 'worker-1' }, { kind: 'ssh', host: 'worker-2' }]);
    const { node } = await model.updateNode(a!.id, { kind: 'ssh', host: 'worker-1', user: 'core', label: 'edited' });
    expect(model.nodes.map((n) => n.label)).toEqual(['edited', 'worker-2']);
    expect(node.id).toBe(a!.id);
  });

  it('drops a removed node at once and brings it back with undo, as a new node', async () => {
    const { bridge, model } = core();
    await model.start();
    const added = await model.addNode({ kind: 'ssh', host: 'worker-1', label: 'w1' });
    const gone = await model.removeNode(added.id);
    expect(model.nodes).toEqual([]);
    // The removal event crossing the answer changes nothing more.
    bridge.emit('nodeRemoved', { nodeId: added.id });
    expect(model.nodes).toEqual([]);
    const back = await model.restoreNode(gone!);
    expect(model.nodes).toEqual([back]);
    expect(back.label).toBe('w1');
    expect(back.id).not.toBe(added.id);
  });

  it('adds nothing when the open dialog was cancelled', async () => {
    const { model } = core();
    await model.start();
    expect(await model.pickSources()).toEqual([]);
    expect(model.nodes).toEqual([]);
  });

  it('takes a record from an event like one from an answer, once', async () => {
    const { bridge, model, nodes } = core();
    await model.start();
    const added = await model.addNode({ kind: 'ssh', host: 'worker-1' });
    bridge.emit('nodeState', { ...added, podCount: 4 });
    expect(model.nodes).toEqual([{ ...added, podCount: 4 }]);
    expect(nodes).toHaveLength(1);
  });
});
