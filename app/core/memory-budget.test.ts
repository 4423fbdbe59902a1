import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, handleRequest, type MemoryUsage, type NodeInfo, type Notice, type PodHistoryView, type RequestName } from '../contract';
import { encodePod } from '../pod/encode';
import type { PodTree } from '../pod/pod-tree';
import { generatePods } from '../sim/pod-generator';
import { AppNotices } from './app-notices';
import { createCore, type Core } from './core';
import { MemoryBudget } from './memory-budget';
import type { NodeLinkEvents } from './node-link';
import { PodHistory } from './pod-history';

const MIB = 1024 ** 2;
let open: Core[] = [];
afterEach(async () => {
  await Promise.all(open.map((h) => h.close()));
  open = [];
});

/** Two live sources played by the test, as their links hand the core a node's pods: their bytes. */
async function twoNodes(now: () => number) {
  const links = new Map<string, NodeLinkEvents>();
  const hub = createCore({ openLink: (request) => (links.set(request.nodeId, request.events), { close: async () => undefined }), frameMs: 1, now, settings: { ...DEFAULT_SETTINGS, memoryBudget: 1024 * MIB } });
  open.push(hub);
  const call = async <T,>(name: RequestName, input: unknown = {}): Promise<T> => {
    const result = await handleRequest(hub.handlers, name, input);
    if (!result.ok) throw new Error(result.error.message);
    return result.value as T;
  };
  const nodes = await call<NodeInfo[]>('nodes.addMany', { nodes: ['a', 'b'].map((n) => ({ kind: 'unix', socketPath: `/run/${n}.sock`, label: `worker-${n}` })) });
  const pods = new Map<string, PodTree[]>();
  for (const [i, node] of nodes.entries()) {
    const link = links.get(node.id)!;
    const trees = generatePods(5, { seed: 40 + i, nodeName: node.label, nowMs: Date.UTC(2026, 0, 2) });
    pods.set(node.id, trees);
    link.state({ phase: 'live', since: now() });
    link.reset(trees.map((pod) => ({ bytes: encodePod(pod) })));
  }
  /** A new version of every pod of the node (a label changed), as the watch brings it. */
  const changeAll = (node: NodeInfo, round: number) => {
    for (const pod of pods.get(node.id)!) {
      const metadata = pod.metadata as { labels?: Record<string, string> };
      metadata.labels = { ...metadata.labels, round: String(round) };
      links.get(node.id)!.change('MODIFIED', { bytes: encodePod(pod) });
    }
  };
  const uids = (node: NodeInfo) => pods.get(node.id)!.map((pod) => String((pod.metadata as { uid: string }).uid));
  return { hub, call, nodes: nodes as [NodeInfo, NodeInfo], changeAll, uids };
}

describe('the memory budget the whole app keeps', () => {
  it('drops earlier versions oldest first across sources, says what went, and the History tab says why', async () => {
    let now = 1000;
    const { hub, call, nodes, changeAll, uids } = await twoNodes(() => now);
    const [a, b] = nodes;
    // Rounds of changes on both nodes in turn: A's pods, then B's, again and again.
    for (let round = 1; round <= 10; round++) {
      now += 1000;
      changeAll(a, round);
      changeAll(b, round);
    }
    const before = await call<MemoryUsage>('memory.usage');
    const told: NodeInfo[] = [];
    hub.subscribe((event) => event.name === 'nodeState' && told.push(event.payload));
    hub.applySettings({ ...DEFAULT_SETTINGS, memoryBudget: Math.floor(before.held / 2) });
    // Every window's node list says both nodes' history was trimmed, though neither changed since.
    expect(told.filter((n) => n.historyTrimmed).map((n) => n.label).sort()).toEqual(['worker-a', 'worker-b']);
    const after = await call<MemoryUsage>('memory.usage');
    expect(after.held).toBeLessThanOrEqual(after.budget);

    // Versions were superseded A's pods then B's, round after round: what went is the start of that order.
    const order = Array.from({ length: 10 }, (_, round) => [a, b].flatMap((node) => uids(node).map((uid) => ({ node, uid, round })))).flat();
    const histories = new Map<string, PodHistoryView>();
    for (const node of [a, b]) for (const uid of uids(node)) histories.set(`${node.id}/${uid}`, await call<PodHistoryView>('pods.history', { nodeId: node.id, uid }));
    const dropped = order.map(({ node, uid, round }) => round < (histories.get(`${node.id}/${uid}`)!.trimmedForBudget ?? 0));
    const count = dropped.filter(Boolean).length;
    expect(count).toBeGreaterThan(10);
    expect(count).toBeLessThan(order.length);
    expect(dropped).toEqual(order.map((_, i) => i < count));
    for (const history of histories.values()) {
      expect(history.trimmed).toBe(history.trimmedForBudget ?? 0);
      expect(history.versions).toHaveLength(11 - history.trimmed);
      expect(history.versions[0]!.change).toBe('earliest version kept');
    }

    const notices = await call<Notice[]>('notices.list');
    const pods = new Set(order.filter((_, i) => dropped[i]).map(({ node, uid }) => `${node.id}/${uid}`)).size;
    expect(notices.map((n) => n.message)).toContainEqual(
      expect.stringMatching(new RegExp(`^To stay within the [\\d.]+ KiB memory budget, Nodescope dropped ${count} earlier versions of ${pods} pods on 2 nodes, the oldest first`)),
    );
    expect(notices.find((n) => n.message.includes('dropped'))?.nextStep).toMatch(/raise the memory budget in Settings/);
    // Dropping within the budget is what the user set, not an error.
    expect(notices.find((n) => n.message.includes('dropped'))?.tone).toBe('info');
  });

  it('drops kept crash logs only after every earlier version, never the current pods, and says when those alone are over', async () => {
    let now = 1000;
    const { hub, call, nodes, changeAll, uids } = await twoNodes(() => now);
    const [a, b] = nodes;
    now += 1000;
    changeAll(a, 1);
    const uid = uids(b)[0]!;
    const records = Buffer.from('2026-01-02T00:00:00.000000000Z stderr F panic: out of memory\n'.repeat(2000));
    hub.keepCrashLog(b.id, { uid, namespace: 'default', name: 'app-0', containerID: 'containerd://0', time: now, container: 'app', instance: 0, ended: 'restarted', lines: 2000, truncated: false, records });
    const crashLogs = async () => (await call<PodHistoryView>('pods.history', { nodeId: b.id, uid })).crashLogs ?? [];
    expect(await crashLogs()).toHaveLength(1);

    // One byte under what is held: an earlier version goes, the crash log stays.
    hub.applySettings({ ...DEFAULT_SETTINGS, memoryBudget: (await call<MemoryUsage>('memory.usage')).held - 1 });
    expect((await call<PodHistoryView>('pods.history', { nodeId: a.id, uid: uids(a)[0]! })).trimmedForBudget).toBe(1);
    expect(await crashLogs()).toHaveLength(1);

    // Below what the current pods take: every earlier version left (4) and the crash log go, every current pod stays.
    hub.applySettings({ ...DEFAULT_SETTINGS, memoryBudget: 1024 });
    expect(await crashLogs()).toEqual([]);
    for (const node of nodes) {
      expect((await call<{ rows: unknown[] }>('pods.rows', { nodeId: node.id })).rows).toHaveLength(5);
      for (const podUid of uids(node)) expect((await call<PodHistoryView>('pods.history', { nodeId: node.id, uid: podUid })).versions).toHaveLength(1);
    }
    const notices = await call<Notice[]>('notices.list');
    expect(notices.map((n) => n.message)).toContainEqual(expect.stringMatching(/^To stay within the 1 KiB memory budget, Nodescope dropped 4 earlier versions of 4 pods and 1 kept crash log on 2 nodes/));
    const over = notices.find((n) => n.message.startsWith('The current pods of your sources alone take about'));
    expect(over?.message).toMatch(/over the 1 KiB memory budget: they are all kept/);
    expect(over?.nextStep).toMatch(/Raise the memory budget in Settings .*or keep only rows for large fleets/);
    expect(over?.tone).toBeUndefined();

    hub.applySettings({ ...DEFAULT_SETTINGS, memoryBudget: 1024 * MIB });
    expect((await call<Notice[]>('notices.list')).map((n) => n.message)).toEqual([]);
  });

  it('counts what each source holds, and no more of it once it is removed', async () => {
    let now = 1000;
    const { call, nodes, changeAll } = await twoNodes(() => now);
    const [a, b] = nodes;
    const held = async () => (await call<MemoryUsage>('memory.usage')).held;
    const both = await held();
    expect(both).toBeGreaterThan(0);
    now += 1000;
    changeAll(b, 1);
    const withHistory = await held();
    expect(withHistory).toBeGreaterThan(both);
    await call('nodes.remove', { nodeId: b.id });
    const onlyA = await held();
    expect(onlyA).toBeGreaterThan(0);
    expect(onlyA).toBeLessThan(both);
    await call('nodes.remove', { nodeId: a.id });
    expect(await held()).toBe(0);
  });

  it('lets go of what went by other means (per-pod limits), so under budget its queue stays as small as what is kept', () => {
    const notices = new AppNotices(() => undefined);
    const budget = new MemoryBudget(1024 * MIB, notices);
    const history = new PodHistory({ perPod: 2, totalBytes: 64 * MIB, deletedRetentionMs: 60_000 }, () => 1000, budget.forSource('node-1'));
    const [pod] = generatePods(1, { seed: 9, nodeName: 'node-1', nowMs: Date.UTC(2026, 0, 2) });
    const metadata = pod!.metadata as { uid: string; labels?: Record<string, string> };
    for (let change = 0; change < 20_000; change++) {
      metadata.labels = { ...metadata.labels, change: String(change) };
      history.record(metadata.uid, 'MODIFIED', { bytes: encodePod(pod!) });
    }
    expect(history.versions(metadata.uid)).toHaveLength(3);
    expect(budget.queued).toBeLessThan(2048);
    expect(notices.list()).toEqual([]);
  });
});
