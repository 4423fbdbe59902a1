// Rows-only nodes (docs/app.md): above the threshold a node keeps its pods' rows and digests, not their
// bytes, and a pod opened is read from the node. Simulated kubelets on real unix sockets, the real host.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, handleRequest, type MemoryUsage, type NodeInfo, type PodDetail, type PodHistoryView, type PodRowsSnapshot, type WorkloadMatrixView, type DiffResult } from '../contract';
import { createCore } from '../core/core';
import type { IncomingPod } from '../core/node-pods';
import { createKubeletClient } from '../kubelet/kubelet-client';
import { parseFieldMask } from '../mask/field-mask';
import { podToKubectlJson } from '../pod/kubectl-json';
import type { PodObject } from '../pod/pod-tree';
import { startSimulatedFleet, type SimulatedFleet } from '../sim/simulated-fleet';
import { scriptedPrompter } from '../ssh/testing/ssh-test-kit';
import { pollUntil } from '../testing/poll-until';
import { createHost, type Host } from './host';
import { openKubeletNodeLink } from './kubelet-node-link';
import { callerOf } from './testing/drive-host';

const NODES = 3;
let dir: string;
let fleet: SimulatedFleet;
const hosts: Host[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodescope-rows-only-'));
  fleet = await startSimulatedFleet({ nodes: NODES, pods: 6, socketDir: dir });
});
afterAll(async () => {
  for (const host of hosts) await host.close();
  await fleet?.stop();
  await rm(dir, { recursive: true, force: true });
});

const sockets = () => fleet.nodes.map((n) => n.sockets.shipped!);

/** The app with the fleet's first `count` nodes added at once, every one live with all its pods. */
async function appWithFleet(rowsOnlyAbove: number, count = NODES) {
  const host = await createHost({ mode: 'browser', stateDir: join(await mkdtemp(join(dir, 'state-')), 'state'), demo: false, settings: { rowsOnlyAbove } });
  hosts.push(host);
  const call = callerOf(host);
  await call('nodes.addMany', { nodes: sockets().slice(0, count).map((socketPath) => ({ kind: 'unix', socketPath })) });
  const nodes = await everyNodeLive(call, count);
  return { host, call, nodes };
}

/** The app's nodes once `count` are live, each with all its pods (the fleet's nodes in order). */
function everyNodeLive(call: ReturnType<typeof callerOf>, count: number): Promise<NodeInfo[]> {
  return pollUntil(
    'every node live with its pods',
    () => call<NodeInfo[]>('nodes.list'),
    (list) => list.length === count && list.every((n, i) => n.state.phase === 'live' && n.podCount === fleet.nodes[i]!.store.list().length),
  );
}

/** What the node's own GetPod answers for the pod now, as kubectl JSON. */
async function nodesGetPod(socketPath: string, uid: string): Promise<string> {
  const client = createKubeletClient({ target: socketPath, socketPath });
  try {
    return podToKubectlJson((await client.getPod(uid)).pod.pod);
  } finally {
    client.close();
  }
}

describe('above the rows-only threshold', () => {
  // Through a mask the shipped kubelet does not apply, a pod is compared by its digest, never found unchanged.
  it.each([
    { how: 'whole', mask: undefined },
    { how: 'through a mask', mask: 'metadata.labels' },
  ])('keeps rows and digests, never the bytes, says the node keeps rows only, and still sees each change ($how)', async ({ how, mask }) => {
    const held: IncomingPod[] = [];
    const changed: IncomingPod[] = [];
    let phase = '';
    const socketPath = sockets()[0]!;
    const link = openKubeletNodeLink(
      {
        nodeId: 'n',
        spec: { kind: 'unix', socketPath },
        prompter: scriptedPrompter({}),
        ...(mask ? { mask: parseFieldMask(mask) } : {}),
        rowsOnly: () => true,
        events: { state: (s) => (phase = s.phase), reset: (pods) => held.splice(0, held.length, ...pods), change: (_type, pod) => changed.push(pod), rowsOnly: (r) => expect(r).toBe(true) },
      },
      { localSocket: socketPath, metricsIntervalMs: 60_000 },
    );
    try {
      await pollUntil('the first list', () => held.length > 0 && held.length === fleet.nodes[0]!.store.list().length);
      for (const pod of held) {
        expect(pod).not.toHaveProperty('bytes');
        expect(pod).toMatchObject({ notHeld: true, digest: expect.any(String), row: { uid: expect.any(String) } });
      }
      // A change on the node once watched: a new digest, so a new row, without any bytes kept to compare.
      await pollUntil('the node live', () => phase === 'live');
      const sim = fleet.nodes[0]!;
      const uid = held[0]!.row!.uid;
      const pod = sim.store.get(uid)!;
      const meta = pod.metadata as PodObject;
      sim.store.apply({ op: 'update', pod: { ...pod, metadata: { ...meta, labels: { ...(meta.labels as PodObject), rows: how } } } });
      const seen = await pollUntil('the change', () => changed.find((p) => p.row?.uid === uid && p.row.labels.rows === how));
      expect(seen).not.toHaveProperty('bytes');
    } finally {
      await link.close();
    }
  });

  it('reads an opened pod from the node: exactly what its GetPod answers, marked as read when opened', async () => {
    const { call, nodes } = await appWithFleet(2);
    expect(nodes.map((n) => n.rowsOnly)).toEqual(nodes.map(() => true));
    const node = nodes[1]!;
    const socketPath = node.spec.kind === 'unix' ? node.spec.socketPath : '';
    const { rows } = await call<PodRowsSnapshot>('pods.rows', { nodeId: node.id });
    const uid = rows[0]!.uid;
    const detail = await call<PodDetail>('pods.get', { nodeId: node.id, uid });
    expect(detail.json).toBe(await nodesGetPod(socketPath, uid));
    expect(detail.fetchedAt).toEqual(expect.any(Number));

    // What needs every version says it is not kept, and why.
    await expect(call('pods.history', { nodeId: node.id, uid })).rejects.toThrow(/not kept for .*keeps rows only/);
    await expect(call('recording.start', { nodeId: node.id, path: join(dir, 'rows-only.recording.ndjson') })).rejects.toThrow(/cannot be recorded here: it keeps rows only/);

    // An export reads the node's pods: every one, whole.
    const path = join(dir, 'rows-only-export.ndjson');
    await call('pods.export', { nodeId: node.id, uids: 'all', format: 'ndjson', path });
    const exported = (await readFile(path, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { metadata: { uid: string } });
    expect(exported.map((p) => p.metadata.uid).sort()).toEqual(rows.map((r) => r.uid).sort());

    // The fleet matrix reads what each pod's row came with: the same matrix as nodes that keep whole pods.
    const rowsOnlyMatrix = await call<WorkloadMatrixView>('fleet.matrix', { nodeIds: nodes.map((n) => n.id) });
    expect(rowsOnlyMatrix.sources.filter((s) => s.error)).toEqual([]);
    const whole = await appWithFleet(NODES);
    expect(await whole.call<WorkloadMatrixView>('fleet.matrix', { nodeIds: whole.nodes.map((n) => n.id) })).toEqual(rowsOnlyMatrix);

    // A node comparison reads both nodes' pods from them: what whole pods give.
    const compare = async (c: typeof call, [left, right]: NodeInfo[]) => {
      const { counts, entries, left: l } = await c<DiffResult>('diff.run', { left: { nodeId: left!.id }, right: { nodeId: right!.id } });
      return { counts, entries, podCount: l.podCount };
    };
    const rowsOnlyDiff = await compare(call, nodes);
    expect(rowsOnlyDiff.podCount).toBe(fleet.nodes[0]!.store.list().length);
    expect(rowsOnlyDiff).toEqual(await compare(whole.call, whole.nodes));
  }, 60_000);

  it('says plainly that a pod the node no longer has is gone, while its row is still shown', async () => {
    const socketPath = sockets()[2]!;
    const sim = fleet.nodes[2]!;
    // The watch's deletions held back, as when the node's watch is behind: the row stays while the pod is gone.
    let holdDeletions = false;
    const core = createCore({
      settings: { ...DEFAULT_SETTINGS, rowsOnlyAbove: 0 },
      openLink: (request) =>
        openKubeletNodeLink(
          { ...request, events: { ...request.events, change: (type, pod) => (holdDeletions && type === 'DELETED' ? undefined : request.events.change(type, pod)) } },
          { localSocket: socketPath, metricsIntervalMs: 60_000 },
        ),
    });
    try {
      const ask = async <T,>(name: Parameters<typeof handleRequest>[1], input: unknown) => {
        const result = await handleRequest(core.handlers, name, input);
        if (!result.ok) throw new Error(`${result.error.message} ${result.error.nextStep ?? ''}`);
        return result.value as T;
      };
      const node = await ask<NodeInfo>('nodes.add', { kind: 'unix', socketPath });
      const rows = await pollUntil('the pods', async () => (await ask<PodRowsSnapshot>('pods.rows', { nodeId: node.id })).rows, (r) => r.length > 0 && r.length === sim.store.list().length);
      const gone = rows[0]!;
      holdDeletions = true;
      sim.store.apply({ op: 'delete', uid: gone.uid });
      await expect(ask('pods.get', { nodeId: node.id, uid: gone.uid })).rejects.toThrow(
        `Pod ${gone.namespace}/${gone.name} is no longer on ${node.label}: the node says it has no such pod (deleted since its row was shown). Its row goes once the node reports the deletion; pick another pod.`,
      );
    } finally {
      await core.close();
    }
  }, 60_000);
});

describe('the memory budget', () => {
  it("counts a rows-only node's rows, though it keeps no versions: less than whole pods, never nothing", async () => {
    const rowsOnly = await appWithFleet(0);
    const whole = await appWithFleet(NODES);
    const held = async (call: typeof rowsOnly.call) => (await call<MemoryUsage>('memory.usage')).held;
    const [rowsHeld, wholeHeld] = [await held(rowsOnly.call), await held(whole.call)];
    expect(rowsHeld).toBeGreaterThan(0);
    expect(rowsHeld).toBeLessThan(wholeHeld);
  }, 60_000);
});

describe('at or below the threshold', () => {
  it('keeps whole pods as before: opened from what is held, with their history', async () => {
    const { call, nodes } = await appWithFleet(NODES);
    expect(nodes.map((n) => n.rowsOnly)).toEqual(nodes.map(() => undefined));
    const node = nodes[0]!;
    const { rows } = await call<PodRowsSnapshot>('pods.rows', { nodeId: node.id });
    const detail = await call<PodDetail>('pods.get', { nodeId: node.id, uid: rows[0]!.uid });
    expect(detail.fetchedAt).toBeUndefined();
    expect(detail.json).toBe(await nodesGetPod(sockets()[0]!, rows[0]!.uid));
    await expect(call('pods.history', { nodeId: node.id, uid: rows[0]!.uid })).resolves.toMatchObject({ versions: [expect.objectContaining({ event: 'LISTED' })] });
  }, 60_000);
});

describe('crossing the threshold with nodes connected', () => {
  type Call = ReturnType<typeof callerOf>;
  const rowsOf = async (call: Call, nodes: NodeInfo[]) => Promise.all(nodes.map(async (n) => (await call<PodRowsSnapshot>('pods.rows', { nodeId: n.id })).rows));
  const liveSince = (nodes: NodeInfo[]) => nodes.map((n) => (n.state.phase === 'live' ? n.state.since : n.state.phase));
  const noticeSaying = (call: Call, text: RegExp) => pollUntil(`a notice saying ${text}`, async () => (await call<{ message: string }[]>('notices.list')).find((n) => text.test(n.message)));
  /** Changes one label of the node's pod, as the node would. */
  const relabel = (i: number, uid: string, value: string) => {
    const sim = fleet.nodes[i]!;
    const pod = sim.store.get(uid)!;
    const meta = pod.metadata as PodObject;
    sim.store.apply({ op: 'update', pod: { ...pod, metadata: { ...meta, labels: { ...(meta.labels as PodObject), crossing: value } } } });
  };

  it('switches the connected nodes to rows only in place when the setting is lowered, and back to whole pods when it is raised', async () => {
    const { call, nodes } = await appWithFleet(NODES);
    const rowsBefore = await rowsOf(call, nodes);
    const heldWhole = (await call<MemoryUsage>('memory.usage')).held;
    const recording = join(dir, 'crossing.recording.ndjson');
    await call('recording.start', { nodeId: nodes[1]!.id, path: recording });

    await call('settings.set', { rowsOnlyAbove: NODES - 1 });
    const switched = await pollUntil('every node rows only', () => call<NodeInfo[]>('nodes.list'), (list) => list.every((n) => n.rowsOnly === true));
    await noticeSaying(call, new RegExp(`^${NODES} nodes now keep rows only: ${NODES} nodes are open, over ${NODES - 1}`));
    // The same watches, never reconnected, with the same rows; the bytes are gone from what is held.
    expect(liveSince(switched)).toEqual(liveSince(nodes));
    expect(await rowsOf(call, switched)).toEqual(rowsBefore);
    expect((await call<MemoryUsage>('memory.usage')).held).toBeLessThan(heldWhole);
    // A recording stops, saying why: the versions it writes are no longer received.
    await noticeSaying(call, new RegExp(`^Recording ${recording} stopped: .* now keeps rows only`));
    await pollUntil('the recording mark gone', async () => (await call<NodeInfo[]>('nodes.list'))[1]!.recordingTo === undefined);
    const node = switched[0]!;
    const uid = rowsBefore[0]![0]!.uid;
    const detail = await call<PodDetail>('pods.get', { nodeId: node.id, uid });
    expect(detail.fetchedAt).toEqual(expect.any(Number));
    expect(detail.json).toBe(await nodesGetPod(sockets()[0]!, uid));
    await expect(call('pods.history', { nodeId: node.id, uid })).rejects.toThrow(/not kept for .*keeps rows only/);

    // A change while rows only is seen as any change is; no version of it is kept.
    relabel(0, uid, 'while-rows-only');
    await pollUntil('the change in the row', async () => (await rowsOf(call, [node]))[0]!.find((r) => r.uid === uid)?.labels.crossing === 'while-rows-only');

    await call('settings.set', { rowsOnlyAbove: NODES });
    await noticeSaying(call, new RegExp(`^${NODES} nodes keep whole pods again: ${NODES} nodes are open, not over ${NODES}`));
    const whole = await pollUntil('every node whole again', () => call<NodeInfo[]>('nodes.list'), (list) => list.every((n) => n.rowsOnly === undefined));
    expect(liveSince(whole)).toEqual(liveSince(nodes));
    // Its pods are held whole again: opened from what is held, their history starting as they were read.
    const again = await call<PodDetail>('pods.get', { nodeId: node.id, uid });
    expect(again.fetchedAt).toBeUndefined();
    expect(again.json).toBe(await nodesGetPod(sockets()[0]!, uid));
    expect((await call<PodHistoryView>('pods.history', { nodeId: node.id, uid })).versions.map((v) => v.event)).toEqual(['LISTED']);
    relabel(0, uid, 'whole-again');
    const history = await pollUntil('the change in the history', () => call<PodHistoryView>('pods.history', { nodeId: node.id, uid }), (h) => h.versions.length === 2);
    expect(history.versions.map((v) => v.event)).toEqual(['LISTED', 'MODIFIED']);
    expect((await call<MemoryUsage>('memory.usage')).held).toBeGreaterThan(0);
  }, 60_000);

  it('switches the nodes connected already as nodes added pass the threshold, and back as they are removed', async () => {
    const { call, nodes } = await appWithFleet(NODES - 1, NODES - 1);
    expect(nodes.map((n) => n.rowsOnly)).toEqual(nodes.map(() => undefined));

    const added = await call<NodeInfo>('nodes.add', { kind: 'unix', socketPath: sockets()[NODES - 1]! });
    const all = await pollUntil('every node rows only', () => everyNodeLive(call, NODES), (list) => list.every((n) => n.rowsOnly === true));
    await noticeSaying(call, new RegExp(`^${NODES - 1} nodes now keep rows only: ${NODES} nodes are open, over ${NODES - 1}`));
    expect(liveSince(all.slice(0, NODES - 1))).toEqual(liveSince(nodes));

    await call('nodes.remove', { nodeId: added.id });
    await pollUntil('the nodes left whole again', () => call<NodeInfo[]>('nodes.list'), (list) => list.length === NODES - 1 && list.every((n) => n.rowsOnly === undefined));
    const { rows } = await call<PodRowsSnapshot>('pods.rows', { nodeId: nodes[1]!.id });
    expect((await call<PodDetail>('pods.get', { nodeId: nodes[1]!.id, uid: rows[0]!.uid })).fetchedAt).toBeUndefined();
  }, 60_000);
});
