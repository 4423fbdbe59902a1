import { mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { handleRequest, type NodeInfo, type PodHistoryView } from '../contract';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { pollUntil } from '../testing/poll-until';
import { createHost, type Host } from './host';
import { openKubeletNodeLink } from './kubelet-node-link';
import { savedNodesPath } from './saved-nodes';
import { callerOf } from './testing/drive-host';

// Two simulated kubelets of different sizes, so which one a node reads is plain from its pod count.
// SSH nodes reach the first one's socket on this machine: what is under test is the edit, not SSH.
let dir: string;
let first: SimulatedKubelet;
let second: SimulatedKubelet;
const socket = (name: string) => join(dir, name);
const open: Host[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ns-edit-node-'));
  first = await startSimulatedKubelet({ socketPath: socket('first.sock'), pods: 5, seed: 3 });
  second = await startSimulatedKubelet({ socketPath: socket('second.sock'), pods: 8, seed: 4 });
});
afterAll(async () => {
  await first?.stop();
  await second?.stop();
  await rm(dir, { recursive: true, force: true });
});
afterEach(async () => {
  for (const inspector of open.splice(0)) await inspector.close();
});

async function start() {
  const stateDir = mkdtempSync(join(dir, 'state-'));
  const inspector = await createHost({
    mode: 'browser',
    stateDir,
    demo: false,
    // Its SSH nodes reach a simulated kubelet here; its unix: nodes their own socket, as their kind says (`kind`).
    openLink: (request, kind) => openKubeletNodeLink(request, request.spec.kind === 'ssh' ? { localSocket: socket('first.sock') } : kind),
  });
  open.push(inspector);
  const call = callerOf(inspector);
  const nodes = () => call<NodeInfo[]>('nodes.list');
  const live = (id: string, pods: number) =>
    pollUntil(`node ${id} live with ${pods} pods`, async () => (await nodes()).find((n) => n.id === id), (n): n is NodeInfo => n?.state.phase === 'live' && n.podCount === pods);
  const saved = () => readFileSync(savedNodesPath(stateDir), 'utf8');
  return { inspector, call, nodes, live, saved };
}

describe('editing a node in place (nodes.update)', () => {
  it('reconnects a node to its new socket with the same id, mask, group and place, and saves the new settings', async () => {
    const app = await start();
    const edited = await app.call<NodeInfo>('nodes.add', { kind: 'unix', socketPath: socket('first.sock'), label: 'lab' });
    const other = await app.call<NodeInfo>('nodes.add', { kind: 'unix', socketPath: socket('first.sock'), label: 'other' });
    await app.call('nodes.setMask', { nodeId: edited.id, mask: 'metadata.name,metadata.namespace' });
    await app.call('nodes.setGroup', { nodeIds: [edited.id], group: 'bench' });
    await app.live(edited.id, 5);

    // What the dialog sends: the settings as shown, with the new socket path.
    const result = await app.call<{ node: NodeInfo; historyCleared: boolean }>('nodes.update', {
      nodeId: edited.id,
      spec: { kind: 'unix', socketPath: socket('second.sock'), label: 'lab', group: 'bench' },
    });
    expect(result.historyCleared).toBe(false);
    expect(result.node).toMatchObject({ id: edited.id, mask: 'metadata.name,metadata.namespace' });

    const now = await app.live(edited.id, 8);
    expect(now.spec).toEqual({ kind: 'unix', socketPath: socket('second.sock'), label: 'lab', group: 'bench' });
    expect(now.mask).toBe('metadata.name,metadata.namespace');
    expect((await app.nodes()).map((n) => n.id)).toEqual([edited.id, other.id]);
    // Its pods are the second kubelet's, through the mask it had.
    const rows = (await app.call<{ rows: { uid: string; phase: string }[] }>('pods.rows', { nodeId: edited.id })).rows;
    expect(rows.map((r) => r.uid).sort()).toEqual([...second.store.uids()].sort());
    expect(rows.every((r) => r.phase === '')).toBe(true);

    // Saved before nodes.update answered, in its place in the list.
    expect(JSON.parse(app.saved()).sources).toEqual([
      { kind: 'unix', socketPath: socket('second.sock'), label: 'lab', group: 'bench', mask: 'metadata.name,metadata.namespace' },
      { kind: 'unix', socketPath: socket('first.sock'), label: 'other' },
    ]);
  });

  it('refuses a bad edit and leaves the node, its connection and nodes.json as they were', async () => {
    const app = await start();
    const node = await app.call<NodeInfo>('nodes.add', { host: 'worker-1', label: 'worker-1', socketPath: '/var/lib/kubelet/pods-api/pods-api.sock' });
    await app.live(node.id, 5);
    const before = await app.nodes();
    const savedBefore = await pollUntil('nodes.json written', () => app.saved().includes('worker-1') && app.saved());

    const refused = async (input: unknown) => {
      const result = await handleRequest(app.inspector.handlers, 'nodes.update', input);
      if (result.ok) throw new Error('the edit was accepted');
      return result.error;
    };
    expect(await refused({ nodeId: node.id, spec: { host: 'worker-1', socketPath: 'pods-api.sock' } })).toMatchObject({ code: 'invalid-input', message: expect.stringMatching(/socket path must be absolute/) });
    expect(await refused({ nodeId: node.id, spec: { host: '-oProxyCommand=touch /tmp/x' } })).toMatchObject({ code: 'invalid-input' });
    expect(await refused({ nodeId: 'node-99', spec: { host: 'worker-2' } })).toMatchObject({ code: 'not-found' });

    expect(await app.nodes()).toEqual(before);
    expect(app.saved()).toBe(savedBefore);
  });

  it('keeps the pod history when the node is the same machine, and says it cleared it when the host changed', async () => {
    const app = await start();
    const node = await app.call<NodeInfo>('nodes.add', { host: 'worker-1' });
    await app.live(node.id, 5);
    const uid = first.store.uids()[0]!;
    const history = () => app.call<PodHistoryView>('pods.history', { nodeId: node.id, uid });
    const listed = (await history()).versions[0]!;
    const recording = join(dir, `${node.id}.recording`);
    await app.call('recording.start', { nodeId: node.id, path: recording });

    const sameHost = await app.call<{ historyCleared: boolean }>('nodes.update', { nodeId: node.id, spec: { host: 'worker-1', user: 'ops', sudo: true } });
    expect(sameHost.historyCleared).toBe(false);
    await app.live(node.id, 5);
    expect((await history()).versions[0]).toEqual(listed);
    // Still the node recorded: the recording goes on.
    expect((await app.nodes())[0]!.recordingTo).toBe(recording);

    const otherHost = await app.call<{ node: NodeInfo; historyCleared: boolean }>('nodes.update', { nodeId: node.id, spec: { host: 'worker-2' } });
    expect(otherHost.historyCleared).toBe(true);
    expect(otherHost.node.label).toBe('worker-2');
    // Another host's pods would go on under the old node's name: the recording ends, and says so.
    expect(otherHost.node.recordingTo).toBeUndefined();
    const notices = await app.call<{ message: string }[]>('notices.list');
    expect(notices.map((n) => n.message)).toContainEqual(expect.stringMatching(new RegExp(`Recording ${recording} stopped after \\d+ events: worker-2 now reaches another host`)));
    expect(readFileSync(recording, 'utf8')).toContain('worker-1');
    await app.live(node.id, 5);
    // Listed afresh from the new connection: the version kept before the edit is gone.
    expect((await history()).versions).toHaveLength(1);
    expect((await history()).versions[0]!.time).toBeGreaterThanOrEqual(listed.time);
    expect((await history()).versions[0]!.id).not.toBe(listed.id);
  });
});
