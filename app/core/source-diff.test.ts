import { afterEach, describe, expect, it } from 'vitest';
import { handleRequest, type DiffResult, type JobProgress, type NodeInfo, type RequestName } from '../contract';
import type { AppEvent } from './app-event';
import type { NodeLinkEvents } from './node-link';
import type { DecodedPod } from '../pod/pod-tree';
import { createCore, type Core } from './core';
import type { OfflineSource } from './core-types';

const pod = (uid: string, phase: string, image = 'app:1'): DecodedPod => ({
  pod: {
    metadata: { uid, name: `pod-${uid}`, namespace: uid.startsWith('k') ? 'kube-system' : 'shop', ownerReferences: [{ kind: 'ReplicaSet', name: 'web-5d', uid: 'rs', controller: true }] },
    spec: { containers: [{ name: 'app', image }] },
    status: { phase },
  },
  unknownFields: [],
});

const snapshot = (pods: DecodedPod[], file = '/tmp/before.json'): OfflineSource => ({ kind: 'snapshot', file, takenAt: 1000, origin: 'worker-1', pods });

/** A hub with one hand-driven live node, the test playing its kubelet; every event kept. */
function hub(diffJobs = { budgetMs: 1, progressEveryMs: 0 }) {
  let events: NodeLinkEvents | undefined;
  const seen: AppEvent[] = [];
  const h = createCore({ openLink: (request) => ((events = request.events), { close: async () => {} }), frameMs: 1, diffJobs });
  h.subscribe((e) => seen.push(e));
  const call = async <T,>(name: RequestName, input: unknown = {}): Promise<T> => {
    const result = await handleRequest(h.handlers, name, input);
    if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
    return result.value as T;
  };
  /** Runs a comparison as a window's call: its progress, and its outcome. */
  const compare = (input: unknown, call: { signal?: AbortSignal; caller?: AbortSignal } = {}) => {
    const progress: JobProgress[] = [];
    const outcome = handleRequest(h.handlers, 'diff.run', input, {
      signal: call.signal ?? new AbortController().signal,
      caller: call.caller ?? new AbortController().signal,
      progress: (p) => progress.push(p as JobProgress),
    });
    const result = () =>
      outcome.then((r) => {
        if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
        return r.value as DiffResult;
      });
    return { progress, outcome, result };
  };
  return { hub: h, call, source: () => events!, compare };
}

let open: Core[] = [];
afterEach(async () => {
  await Promise.all(open.map((h) => h.close()));
  open = [];
});

describe('source against source in the hub', () => {
  it('compares a live node with a snapshot: added, removed and changed pods with rows and path lines, and the pair as it was compared', async () => {
    const t = hub();
    open.push(t.hub);
    const before = t.hub.openOffline(snapshot([pod('a', 'Running'), pod('b', 'Pending'), pod('c', 'Running'), pod('k1', 'Running')]));
    const live = await t.call<NodeInfo>('nodes.add', { host: 'worker-1' });
    t.source().reset([pod('a', 'Running'), pod('b', 'Running', 'app:2'), pod('d', 'Running'), pod('k1', 'Running')]);

    const run = t.compare({ left: { nodeId: before.id }, right: { nodeId: live.id } });
    const result = await run.result();
    const { jobId } = result;
    expect(run.progress[0]).toEqual({ done: 0, total: 12 });
    expect(run.progress.every((p) => p.total === 12 && p.done <= 12)).toBe(true);
    expect(await t.call<DiffResult>('diff.result', { jobId })).toEqual(result);
    expect(result.counts).toEqual({ added: 1, removed: 1, changed: 1, unchanged: 2 });
    expect(result.left).toMatchObject({ nodeId: before.id, label: 'before.json', podCount: 4, mask: '' });
    expect(result.right).toMatchObject({ nodeId: live.id, label: 'worker-1', podCount: 4 });
    expect(result.entries.map((e) => [e.change, e.leftUid, e.rightUid, e.row.namespace, e.row.ownerKind])).toEqual([
      ['changed', 'b', 'b', 'shop', 'ReplicaSet'],
      ['removed', 'c', undefined, 'shop', 'ReplicaSet'],
      ['added', undefined, 'd', 'shop', 'ReplicaSet'],
    ]);
    expect(result.entries[0]!.changes).toEqual(['spec.containers[name=app].image: "app:1" → "app:2"', 'status.phase: "Pending" → "Running"']);
    expect(result.entries[0]!.matchedBy).toBe('uid');

    // The live pod changes again: drill-down shows what was compared, not what is there now.
    t.source().change('MODIFIED', pod('b', 'Failed', 'app:3'));
    const pair = await t.call<{ left: { json: string }; right: { json: string; label: string }; differentPods: boolean }>('diff.pods', { jobId, leftUid: 'b', rightUid: 'b' });
    expect(JSON.parse(pair.left.json).spec.containers[0].image).toBe('app:1');
    expect(JSON.parse(pair.right.json).spec.containers[0].image).toBe('app:2');
    expect(pair.right.label).toBe('worker-1');
    expect(pair.differentPods).toBe(false);
    const removed = await t.call<{ left: unknown; right: unknown }>('diff.pods', { jobId, leftUid: 'c' });
    expect(removed.right).toBeNull();
    await expect(t.call('diff.pods', { jobId, leftUid: 'zz' })).rejects.toThrow(/not in the comparison/);
  });

  it('pages the pods that differ, and forgets a comparison when told or when its window goes', async () => {
    const t = hub();
    open.push(t.hub);
    const left = t.hub.openOffline(snapshot(Array.from({ length: 700 }, (_, i) => pod(`p${i}`, 'Pending')), '/tmp/a.json'));
    const right = t.hub.openOffline(snapshot(Array.from({ length: 700 }, (_, i) => pod(`p${i}`, 'Running')), '/tmp/b.json'));
    const first = await t.compare({ left: { nodeId: left.id }, right: { nodeId: right.id } }).result();
    const { jobId } = first;
    const second = await t.call<DiffResult>('diff.result', { jobId, offset: first.entries.length });
    expect(first.total).toBe(700);
    expect(first.entries.length).toBe(500);
    expect(second.entries.length).toBe(200);
    expect(new Set([...first.entries, ...second.entries].map((e) => e.rightUid)).size).toBe(700);
    await expect(t.call('diff.result', { jobId, limit: 501 })).rejects.toThrow(/500/);
    await t.call('diff.forget', { jobId });
    await expect(t.call('diff.result', { jobId })).rejects.toThrow(/no comparison/);

    const window = new AbortController();
    const kept = await t.compare({ left: { nodeId: left.id }, right: { nodeId: right.id } }, { caller: window.signal }).result();
    expect((await t.call<DiffResult>('diff.result', { jobId: kept.jobId, offset: 600 })).entries).toHaveLength(100);
    window.abort();
    await expect(t.call('diff.result', { jobId: kept.jobId })).rejects.toThrow(/no comparison/);
  });

  it('stops a comparison its caller cancels: its progress ends there, short of the last pair', async () => {
    const t = hub({ budgetMs: 1, progressEveryMs: 0 });
    open.push(t.hub);
    const many = (phase: string) => Array.from({ length: 3000 }, (_, i) => pod(`p${i}`, phase));
    const left = t.hub.openOffline(snapshot(many('Pending'), '/tmp/a.json'));
    const right = t.hub.openOffline(snapshot(many('Running'), '/tmp/b.json'));
    const caller = new AbortController();
    const run = t.compare({ left: { nodeId: left.id }, right: { nodeId: right.id } }, { signal: caller.signal });
    await expect.poll(() => run.progress.length).toBeGreaterThanOrEqual(2);
    caller.abort();
    const atCancel = run.progress.length;
    expect(await run.outcome).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    // Over: nothing reported after it was cancelled.
    expect(run.progress).toHaveLength(atCancel);
    expect(run.progress.at(-1)!.done).toBeLessThan(run.progress.at(-1)!.total);
  });

  it('compares a recording with itself at another instant', async () => {
    const t = hub();
    open.push(t.hub);
    const sets: Record<number, DecodedPod[]> = { 100: [pod('a', 'Pending')], 300: [pod('a', 'Running'), pod('b', 'Pending')] };
    const rec = t.hub.openOffline({
      kind: 'recording',
      file: '/tmp/node.nsrec',
      takenAt: 100,
      origin: 'worker-1',
      start: 100,
      end: 300,
      initial: sets[100]!,
      events: [
        { time: 300, type: 'MODIFIED', pod: pod('a', 'Running') },
        { time: 300, type: 'ADDED', pod: pod('b', 'Pending') },
      ],
      podsAt: (at) => sets[at < 300 ? 100 : 300]!,
    });
    const result = await t.compare({ left: { nodeId: rec.id, at: 0 }, right: { nodeId: rec.id } }).result();
    expect(result.left.at).toBe(100);
    expect(result.right.at).toBe(300);
    expect(result.entries.map((e) => [e.change, e.row.name, e.changes])).toEqual([
      ['changed', 'pod-a', ['status.phase: "Pending" → "Running"']],
      ['added', 'pod-b', []],
    ]);
    const live = await t.call<NodeInfo>('nodes.add', { host: 'worker-1' });
    await expect(t.compare({ left: { nodeId: live.id, at: 5 }, right: { nodeId: rec.id } }).result()).rejects.toThrow(/not a recording/);
  });

  it('compares only the fields both sides selected when a side has a mask', async () => {
    const t = hub();
    open.push(t.hub);
    const before = t.hub.openOffline(snapshot([pod('a', 'Pending'), pod('b', 'Running')]));
    const live = await t.call<NodeInfo>('nodes.add', { host: 'worker-1' });
    await t.call('nodes.setMask', { nodeId: live.id, mask: 'metadata.uid,metadata.name,metadata.namespace' });
    t.source().reset([pod('a', 'Running', 'app:9'), pod('b', 'Running')]);
    const result = await t.compare({ left: { nodeId: before.id }, right: { nodeId: live.id } }).result();
    expect(result.right.mask).toBe('metadata.uid,metadata.name,metadata.namespace');
    expect(result.counts).toEqual({ added: 0, removed: 0, changed: 0, unchanged: 2 });
  });
});
