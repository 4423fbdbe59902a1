import { afterEach, describe, expect, it } from 'vitest';
import { detachedCall, type FeedLine, type NodeInfo, type PodDeltas, type PodWatchItem, type ServerFrame } from '../contract';
import type { DecodedPod } from '../pod/pod-tree';
import { openCallerConnection } from './caller-connection';
import { PodWatchers } from './pod-watchers';
import { createCore, type Core } from './core';
import type { NodeLinkEvents } from './node-link';

const pod = (uid: string, phase: string): DecodedPod => ({ pod: { metadata: { uid, name: `pod-${uid}`, namespace: 'default' }, status: { phase } }, unknownFields: [] });

let hubs: Core[] = [];
afterEach(async () => {
  await Promise.all(hubs.map((h) => h.close()));
  hubs = [];
});

/** A hub over two hand-driven live nodes, a and b (the test plays their kubelets), and windows onto it. */
async function twoNodes() {
  const kubelets = new Map<string, NodeLinkEvents>();
  const hub = createCore({ openLink: (request) => (kubelets.set(request.nodeId, request.events), { close: async () => {} }), frameMs: 1 });
  hubs.push(hub);
  const add = async (label: string) => {
    const node = await hub.handlers['nodes.add']({ kind: 'unix', socketPath: `/run/${label}.sock`, label }, detachedCall());
    const kubelet = kubelets.get(node.id)!;
    kubelet.state({ phase: 'live', since: 1 });
    kubelet.reset([pod(`${label}-1`, 'Pending')]);
    return { node, kubelet };
  };
  const a = await add('a');
  const b = await add('b');
  const window = () => {
    const frames: ServerFrame[] = [];
    const items = () => frames.flatMap((f) => (f.type === 'progress' ? [f.progress as PodWatchItem] : []));
    const connection = openCallerConnection({ handlers: hub.handlers, subscribe: (l) => hub.subscribe(l) }, (frame) => frames.push(frame), () => {});
    let id = 0;
    return {
      frames,
      connection,
      watch: (node: NodeInfo) => (connection.receive({ type: 'request', id: ++id, name: 'pods.watch', input: { nodeId: node.id } }), id),
      batches: () => items().flatMap((item) => ('seq' in item ? [item] : [])),
      /** Feed lines, whether they came through a watch or (as they must not) as an event to every window. */
      lines: () => [
        ...items().flatMap((item) => ('lines' in item ? item.lines : [])),
        ...frames.flatMap((f) => (f.type === 'event' && f.name === 'watchEvents' ? (f.payload as { lines: FeedLine[] }).lines : [])),
      ],
      states: (node: NodeInfo) => frames.flatMap((f) => (f.type === 'event' && f.name === 'nodeState' && (f.payload as NodeInfo).id === node.id ? [f.payload as NodeInfo] : [])),
    };
  };
  return { hub, a, b, window };
}

describe('pod batches by subscription', () => {
  it('a window watching node a receives none of node b\'s batches or feed lines, nor any as an event', async () => {
    const { a, b, window } = await twoNodes();
    const one = window();
    const two = window();
    one.watch(a.node);
    two.watch(b.node);
    a.kubelet.change('MODIFIED', pod('a-1', 'Running'));
    b.kubelet.change('MODIFIED', pod('b-1', 'Running'));
    b.kubelet.change('ADDED', pod('b-2', 'Pending'));
    await expect.poll(() => two.batches().flatMap((d) => d.upserts.map((r) => r.uid))).toEqual(expect.arrayContaining(['b-1', 'b-2']));
    await expect.poll(() => one.batches().flatMap((d) => d.upserts.map((r) => r.uid))).toContain('a-1');
    a.kubelet.change('DELETED', pod('a-1', 'Running'));
    await expect.poll(() => one.batches().flatMap((d) => d.removals)).toContain('a-1');
    expect(new Set(one.batches().map((d) => d.nodeId))).toEqual(new Set([a.node.id]));
    expect(new Set(two.batches().map((d) => d.nodeId))).toEqual(new Set([b.node.id]));
    for (const w of [one, two]) expect(w.frames.filter((f) => f.type === 'event' && f.name === 'podDeltas')).toEqual([]);
    // The events feed likewise: each window gets the lines of the node it watches, and none of the other's.
    await expect.poll(() => one.lines().map((l) => l.uid)).toEqual(expect.arrayContaining(['a-1']));
    await expect.poll(() => two.lines().map((l) => l.uid)).toEqual(expect.arrayContaining(['b-1', 'b-2']));
    expect(new Set(one.lines().map((l) => l.nodeId))).toEqual(new Set([a.node.id]));
    expect(new Set(two.lines().map((l) => l.nodeId))).toEqual(new Set([b.node.id]));
  });

  it('ends a watch its window cancels or leaves, and answers one whose node is removed', async () => {
    const { hub, a, b, window } = await twoNodes();
    const one = window();
    const cancelled = one.watch(a.node);
    const removed = one.watch(b.node);
    one.connection.receive({ type: 'cancel', id: cancelled });
    a.kubelet.change('MODIFIED', pod('a-1', 'Running'));
    b.kubelet.change('MODIFIED', pod('b-1', 'Running'));
    await expect.poll(() => one.batches().flatMap((d) => d.upserts.map((r) => r.uid))).toContain('b-1');
    await hub.handlers['nodes.remove']({ nodeId: b.node.id }, detachedCall());
    await expect.poll(() => one.frames.filter((f) => f.type === 'response' && f.id === removed)).toHaveLength(1);

    const two = window();
    two.watch(a.node);
    two.connection.close();
    const seen = two.frames.length;
    a.kubelet.change('MODIFIED', pod('a-1', 'Succeeded'));
    // Another window watching a sees the batch go out: the closed one got nothing of it.
    const three = window();
    three.watch(a.node);
    a.kubelet.change('MODIFIED', pod('a-1', 'Failed'));
    await expect.poll(() => three.batches().length).toBeGreaterThan(0);
    expect(two.frames).toHaveLength(seen);
    expect(one.batches().every((d) => d.nodeId === b.node.id)).toBe(true);
  });

  it('sends a node\'s state once per change, not again with each batch of its pods', async () => {
    const { a, window } = await twoNodes();
    const one = window();
    one.watch(a.node);
    for (let i = 0; i < 5; i++) {
      a.kubelet.change('ADDED', pod(`a-more-${i}`, 'Pending'));
      await expect.poll(() => one.batches().flatMap((d) => d.upserts.map((r) => r.uid))).toContain(`a-more-${i}`);
    }
    expect(one.states(a.node)).toEqual([]);
    a.kubelet.state({ phase: 'reconnecting', attempt: 1, retryAt: 2, cause: 'connection reset' });
    await expect.poll(() => one.states(a.node).map((n) => n.state.phase)).toEqual(['reconnecting']);
    expect(one.states(a.node)[0]!.podCount).toBe(6);
  });
});

describe('PodWatchers', () => {
  it('fails only the watch whose batch its contract refused; the node\'s other watchers go on', async () => {
    const watchers = new PodWatchers();
    const got: number[] = [];
    const call = (progress: (batch: PodDeltas) => void) => ({ signal: new AbortController().signal, caller: new AbortController().signal, progress });
    const broken = watchers.watch('n1', call(() => {
      throw new Error('invalid progress');
    }));
    const fine = watchers.watch('n1', call((batch) => got.push(batch.seq)));
    const batch = (seq: number): PodDeltas => ({ nodeId: 'n1', seq, reset: false, upserts: [], removals: [] });
    watchers.deliver(batch(1));
    await expect(broken).rejects.toThrow('invalid progress');
    watchers.deliver(batch(2));
    expect(got).toEqual([1, 2]);
    watchers.end('n1');
    await expect(fine).resolves.toEqual({});
  });
});
