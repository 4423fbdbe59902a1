import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeContextSchema, type NodeContextRead, type NodeInfo } from '../contract';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { createPrivateSocketDir, type PrivateSocketDir } from '../ssh/private-socket-dir';
import { pollUntil } from '../testing/poll-until';
import { createHost, type Host } from './host';
import { callerOf, driveHost } from './testing/drive-host';

// node.info through a real host: a Pods API socket on this machine (the simulated kubelet) is read here,
// with the same reader `nodescope node unix:SOCKET` runs; the demo node has no node of its own to ask.
let inspector: Host;
let call: ReturnType<typeof callerOf>;
let dir: PrivateSocketDir;
let sim: SimulatedKubelet;

beforeAll(async () => {
  dir = createPrivateSocketDir();
  sim = await startSimulatedKubelet({ socketPath: dir.socketPath, pods: 5, seed: 3 });
  inspector = await createHost({ mode: 'browser', stateDir: mkdtempSync(join(tmpdir(), 'ns-node-info-')), demo: true });
  ({ call } = driveHost(inspector));
});
afterAll(async () => {
  await inspector.close();
  await sim.stop();
  dir.remove();
});

const live = (label: string, find: (n: NodeInfo) => boolean) =>
  pollUntil(label, async () => (await call<NodeInfo[]>('nodes.list')).find(find), (n) => n?.state.phase === 'live' && n.podCount > 0);

describe('node.info', () => {
  it("reads a unix-socket node's context here, each part read or saying why not", async () => {
    const node = await call<NodeInfo>('nodes.add', { kind: 'unix', socketPath: dir.socketPath });
    await live('the socket node live', (n) => n.id === node.id);
    const r = await call<NodeContextRead>('node.info', { nodeId: node.id });
    if (r.status !== 'read') throw new Error(`expected the context, got: ${r.message}`);
    // The shape `nodescope node -o json` prints, every part present.
    expect(NodeContextSchema.strict().parse(r.context)).toEqual(r.context);
    for (const [name, part] of Object.entries(r.context)) {
      if ('error' in part) expect(part.error, name).toMatch(/\S/);
      else expect(part.from, name).toMatch(/\S/);
    }
  });

  it('answers a disconnected node as unavailable, saying to connect it', async () => {
    const node = await call<NodeInfo>('nodes.add', { kind: 'unix', socketPath: dir.socketPath, label: 'later' });
    await call('nodes.disconnect', { nodeId: node.id });
    await pollUntil('the node disconnected', async () => (await call<NodeInfo[]>('nodes.list')).find((n) => n.id === node.id), (n) => n?.state.phase === 'disconnected');
    expect(await call<NodeContextRead>('node.info', { nodeId: node.id })).toEqual({
      status: 'unavailable',
      message: 'later is not connected, so its node cannot be asked.',
      nextStep: 'Connect the node, then open Node info again.',
    });
  });

  it('answers the demo node as not available for its kind of source', async () => {
    const demo = await live('the demo node live', (n) => n.simulated);
    const r = await call<NodeContextRead>('node.info', { nodeId: demo!.id });
    expect(r).toMatchObject({ status: 'unavailable', message: expect.stringContaining('not available for this kind of source') });
  });
});
