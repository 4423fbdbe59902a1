import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeBridge, type FakeBridge } from '../../app/contract/testing/fake-bridge';
import { testRow } from '../../app/contract/testing/test-row';
import type { PodRow, PodWatchItem } from '../../app/contract/pods';
import { Prng } from '../../app/sim/prng';
import { matchesFilter, parseFilter } from '../../app/pod/view/filter-language';
import { sortRows, type SortOrder } from '../filter/sort-rows';
import { AppModel } from './app-model';
import { FeedBuffer } from './feed-buffer';
import { FrameBatcher } from './frame-batcher';
import { fleetRowKey, PodStore, type FleetSource } from './pod-store';

/** The app core's side of the window's pods.watch calls: hands a batch to the watch of its node. */
function podWatches(bridge: FakeBridge): (item: PodWatchItem) => void {
  const watching = new Map<string, (item: PodWatchItem) => void>();
  bridge.handle({ 'pods.watch': ({ nodeId }, call) => new Promise(() => watching.set(nodeId, call.progress)) });
  return (item) => watching.get(item.nodeId)!(item);
}

describe('PodStore', () => {
  it('indexes pods by node and UID and applies batches in seq order', () => {
    const store = new PodStore();
    store.applySnapshot('n1', { seq: 5, rows: [testRow({ uid: 'a' }), testRow({ uid: 'b' })] });
    store.applySnapshot('n2', { seq: 0, rows: [testRow({ uid: 'a', name: 'other-node-a' })] });
    expect(store.applyDeltas({ nodeId: 'n1', seq: 5, reset: false, upserts: [testRow({ uid: 'z' })], removals: [] }, 1000)).toBe('duplicate');
    expect(store.applyDeltas({ nodeId: 'n1', seq: 6, reset: false, upserts: [testRow({ uid: 'a', restarts: 2 })], removals: ['b'] }, 1000)).toBe('applied');
    expect(store.rows('n1').map((r) => [r.uid, r.restarts])).toEqual([['a', 2]]);
    expect(store.get('n2', 'a')?.name).toBe('other-node-a');
    expect(store.changedAt('n1', 'a')).toBe(1000);
    expect(store.applyDeltas({ nodeId: 'n1', seq: 8, reset: false, upserts: [], removals: ['a'] }, 2000)).toBe('gap');
    expect(store.count('n1')).toBe(1);
  });

  it('keeps what the feed says last changed in a pod it shows, until the pod is removed', () => {
    const store = new PodStore();
    store.applySnapshot('n1', { seq: 1, rows: [testRow({ uid: 'a' }), testRow({ uid: 'b' })] });
    const line = (uid: string, type: 'MODIFIED' | 'ADDED', change: string, time: number) => ({ time, nodeId: 'n1', type, namespace: 'ns', name: uid, uid, change });
    store.noteChanges([line('a', 'MODIFIED', 'image app:1 → app:2', 10), line('b', 'ADDED', 'added', 10), line('zz', 'MODIFIED', 'phase', 10)]);
    store.noteChanges([line('a', 'MODIFIED', 'status Pending → Running', 20)]);
    expect(store.lastChange('n1', 'a')).toEqual({ time: 20, change: 'status Pending → Running' });
    expect(store.lastChange('n1', 'b')).toBeUndefined();
    expect(store.lastChange('n1', 'zz')).toBeUndefined();
    store.applyDeltas({ nodeId: 'n1', seq: 2, reset: false, upserts: [], removals: ['a'] }, 30);
    expect(store.lastChange('n1', 'a')).toBeUndefined();
  });

  it('keeps batches that arrive before the snapshot and replays the newer ones', () => {
    const store = new PodStore();
    expect(store.applyDeltas({ nodeId: 'n', seq: 3, reset: false, upserts: [testRow({ uid: 'old' })], removals: [] }, 1)).toBe('early');
    expect(store.applyDeltas({ nodeId: 'n', seq: 4, reset: false, upserts: [testRow({ uid: 'new' })], removals: [] }, 1)).toBe('early');
    store.applySnapshot('n', { seq: 3, rows: [testRow({ uid: 'snap' })] });
    expect(store.rows('n').map((r) => r.uid).sort()).toEqual(['new', 'snap']);
  });

  it('after a gap, holds later batches and replays them on the next snapshot', () => {
    const store = new PodStore();
    store.applySnapshot('n', { seq: 1, rows: [testRow({ uid: 'a' })] });
    const batch = (seq: number, uid: string) => ({ nodeId: 'n', seq, reset: false, upserts: [testRow({ uid })], removals: [] });
    expect(store.applyDeltas(batch(3, 'lost'), 1)).toBe('gap');
    expect(store.applyDeltas(batch(4, 'b'), 1)).toBe('early');
    expect(store.applyDeltas(batch(5, 'c'), 1)).toBe('early');
    expect(store.rows('n').map((r) => r.uid)).toEqual(['a']);
    expect(store.applySnapshot('n', { seq: 4, rows: [testRow({ uid: 'a' }), testRow({ uid: 'b' })] })).toBe('applied');
    expect(store.rows('n').map((r) => r.uid)).toEqual(['a', 'b', 'c']);
    expect(store.applyDeltas(batch(6, 'd'), 1)).toBe('applied');
  });

  it('says when a snapshot is older than the batches held for it', () => {
    const store = new PodStore();
    store.applyDeltas({ nodeId: 'n', seq: 9, reset: false, upserts: [testRow({ uid: 'x' })], removals: [] }, 1);
    expect(store.applySnapshot('n', { seq: 2, rows: [] })).toBe('gap');
    expect(store.applySnapshot('n', { seq: 8, rows: [] })).toBe('applied');
    expect(store.rows('n').map((r) => r.uid)).toEqual(['x']);
  });

  it('replaces the whole set on reset without flashing every row', () => {
    const store = new PodStore();
    store.applySnapshot('n', { seq: 1, rows: [testRow({ uid: 'a' })] });
    store.applyDeltas({ nodeId: 'n', seq: 9, reset: true, upserts: [testRow({ uid: 'b' })], removals: [] }, 50);
    expect(store.rows('n').map((r) => r.uid)).toEqual(['b']);
    expect(store.changedAt('n', 'b')).toBeUndefined();
  });

  it('drops held batches past its limit and reports a gap again, then catches up from the next snapshot', () => {
    const store = new PodStore(3);
    store.applySnapshot('n', { seq: 1, rows: [testRow({ uid: 'a' })] });
    const batch = (seq: number) => ({ nodeId: 'n', seq, reset: false, upserts: [testRow({ uid: `p${seq}` })], removals: [] });
    expect([3, 4, 5, 6].map((seq) => store.applyDeltas(batch(seq), 1))).toEqual(['gap', 'early', 'early', 'gap']);
    expect(store.applyDeltas(batch(7), 1)).toBe('early');
    // Held: only 7. A snapshot at 6 covers what was dropped; 7 replays on it.
    expect(store.applySnapshot('n', { seq: 6, rows: [testRow({ uid: 'from-snapshot' })] })).toBe('applied');
    expect(store.rows('n').map((r) => r.uid)).toEqual(['from-snapshot', 'p7']);
    expect(store.applyDeltas(batch(8), 1)).toBe('applied');
  });

  it('keeps the table\'s filtered, sorted view up to date through snapshots, batches and resets', () => {
    const store = new PodStore();
    const filter = parseFilter('-ns:kube-system');
    const order = { key: 'name' as const, descending: true };
    store.applySnapshot('n', { seq: 1, rows: [testRow({ uid: 'a' }), testRow({ uid: 'k', namespace: 'kube-system' }), testRow({ uid: 'c' })] });
    expect(store.view('n', filter, order).map((r) => r.uid)).toEqual(['c', 'a']);
    store.applyDeltas({ nodeId: 'n', seq: 2, reset: false, upserts: [testRow({ uid: 'b' }), testRow({ uid: 'c', namespace: 'kube-system' })], removals: ['a'] }, 1);
    expect(store.view('n', filter, order).map((r) => r.uid)).toEqual(['b']);
    store.applyDeltas({ nodeId: 'n', seq: 3, reset: true, upserts: [testRow({ uid: 'x' }), testRow({ uid: 'y' })], removals: [] }, 1);
    expect(store.view('n', filter, order).map((r) => r.uid)).toEqual(['y', 'x']);
    store.applySnapshot('n', { seq: 4, rows: [testRow({ uid: 'z' })] });
    expect(store.view('n', filter, { key: 'name', descending: false }).map((r) => r.uid)).toEqual(['z']);
    expect(store.view('other', filter, order)).toEqual([]);
  });

  it('returns the same array until something changes', () => {
    const store = new PodStore();
    store.applySnapshot('n', { seq: 0, rows: [testRow({ uid: 'a' })] });
    const first = store.rows('n');
    expect(store.rows('n')).toBe(first);
    store.applyDeltas({ nodeId: 'n', seq: 1, reset: false, upserts: [testRow({ uid: 'b' })], removals: [] }, 1);
    expect(store.rows('n')).not.toBe(first);
  });
});

describe('FeedBuffer', () => {
  it('keeps the newest lines, newest first, within its bound', () => {
    const feed = new FeedBuffer(3);
    const line = (n: number) => ({ time: n, nodeId: 'n', type: 'MODIFIED' as const, namespace: 'ns', name: `p${n}`, uid: `u${n}`, change: 'x' });
    feed.push([line(1), line(2)]);
    feed.push([line(3), line(4), line(5), line(6)]);
    expect(feed.lines().map((l) => l.time)).toEqual([6, 5, 4]);
  });
});

describe('frame batching', () => {
  it('delivers a burst in one flush per frame', () => {
    const frames: (() => void)[] = [];
    const flushed: number[][] = [];
    const batcher = new FrameBatcher<number>((items) => flushed.push(items), (cb) => frames.push(cb));
    for (let i = 0; i < 1000; i++) batcher.push(i);
    expect(frames).toHaveLength(1);
    frames.shift()!();
    batcher.push(1000);
    frames.shift()!();
    expect(flushed.map((f) => f.length)).toEqual([1000, 1]);
  });

  it('AppModel renders 1,000 pod events with one notification per frame, to the pod views only', async () => {
    const bridge = createFakeBridge({
      'nodes.list': () => [
        { id: 'n1', label: 'demo', simulated: true, spec: { kind: 'ssh' as const, host: 'sim' }, state: { phase: 'live', since: 1 }, mask: '', maskPaths: [], maskHonoured: null, podCount: 0 },
      ],
      'prompts.pending': () => [],
      'pods.rows': () => ({ seq: 0, rows: [] }),
    });
    const frames: (() => void)[] = [];
    const model = new AppModel(bridge, { requestFrame: (cb) => frames.push(cb), now: () => 42 });
    const push = podWatches(bridge);
    await model.start();
    let notifications = 0;
    let windowNotifications = 0;
    model.subscribePods(() => notifications++);
    model.subscribe(() => windowNotifications++);
    for (let seq = 1; seq <= 1000; seq++) {
      push({ nodeId: 'n1', seq, reset: false, upserts: [testRow({ uid: `p${seq % 300}`, restarts: seq })], removals: [] });
    }
    push({ nodeId: 'n1', lines: [{ time: 1, nodeId: 'n1', type: 'ADDED', namespace: 'd', name: 'p1', uid: 'p1', change: 'created' }] });
    expect(notifications).toBe(0);
    expect(frames).toHaveLength(1);
    frames.shift()!();
    expect(notifications).toBe(1);
    expect(model.pods.count('n1')).toBe(300);
    expect(model.pods.get('n1', 'p0')?.restarts).toBe(900);
    expect(model.feed.lines()).toHaveLength(1);
    // Pod batches are news for the pod views only; the node's state (sent once per change) for the whole window.
    expect(windowNotifications).toBe(0);
    bridge.emit('nodeState', { ...model.node('n1')!, state: { phase: 'disconnected' } });
    expect([notifications, windowNotifications]).toEqual([2, 1]);
  });

  it('AppModel asks for one snapshot per gap however many batches arrive while it is on its way', async () => {
    let answer: (() => void) | undefined;
    let serverSeq = 0;
    const bridge = createFakeBridge({
      'nodes.list': () => [{ id: 'n1', label: 'x', simulated: false, spec: { kind: 'ssh' as const, host: 'x' }, state: { phase: 'live', since: 1 }, mask: '', maskPaths: [], maskHonoured: null, podCount: 0 }],
      'prompts.pending': () => [],
      'pods.rows': () => ({ seq: serverSeq, rows: [] }),
    });
    const frames: (() => void)[] = [];
    const model = new AppModel(bridge, { requestFrame: (cb) => frames.push(cb) });
    const push = podWatches(bridge);
    await model.start();
    bridge.handle({
      'pods.rows': () => new Promise((resolve) => (answer = () => resolve({ seq: 3, rows: [testRow({ uid: 'p3' })] }))),
    });
    for (let seq = 2; seq <= 6; seq++) {
      serverSeq = seq;
      push({ nodeId: 'n1', seq, reset: false, upserts: [testRow({ uid: `p${seq}` })], removals: [] });
      frames.shift()!();
      await new Promise((r) => setTimeout(r, 0));
    }
    expect(bridge.calls.filter((c) => c.name === 'pods.rows')).toHaveLength(2);
    answer!();
    await new Promise((r) => setTimeout(r, 0));
    expect(model.pods.rows('n1').map((r) => r.uid)).toEqual(['p3', 'p4', 'p5', 'p6']);
  });

  describe('when pods.rows fails', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('AppModel retries with doubling delays capped at 30 s, then shows the rows and clears the banner', async () => {
      vi.useFakeTimers();
      const asked: number[] = [];
      let failures = 8;
      const bridge = createFakeBridge({
        'nodes.list': () => [{ id: 'n1', label: 'x', simulated: false, spec: { kind: 'ssh' as const, host: 'x' }, state: { phase: 'live', since: 1 }, mask: '', maskPaths: [], maskHonoured: null, podCount: 0 }],
        'prompts.pending': () => [],
        'pods.rows': () => {
          asked.push(Date.now());
          if (failures-- > 0) throw new Error('The app core is busy.');
          return { seq: 4, rows: [testRow({ uid: 'p4' })] };
        },
      });
      const frames: (() => void)[] = [];
      const model = new AppModel(bridge, { requestFrame: (cb) => frames.push(cb) });
      const push = podWatches(bridge);
      await model.start();
      expect(model.connectionProblem).toContain('busy');
      // Batches keep coming meanwhile; they are held for the snapshot.
      push({ nodeId: 'n1', seq: 5, reset: false, upserts: [testRow({ uid: 'p5' })], removals: [] });
      frames.shift()!();
      await vi.advanceTimersByTimeAsync(200_000);
      expect(asked.slice(1).map((t, i) => t - asked[i]!)).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
      expect(model.pods.rows('n1').map((r) => r.uid)).toEqual(['p4', 'p5']);
      expect(model.connectionProblem).toBeNull();
    });

    it('AppModel stops retrying for a removed node, and a resync fetches at once', async () => {
      vi.useFakeTimers();
      let asked = 0;
      const node = (id: string) => ({ id, label: id, simulated: false, spec: { kind: 'ssh' as const, host: id }, state: { phase: 'live' as const, since: 1 }, mask: '', maskPaths: [], maskHonoured: null, podCount: 0 });
      let listed = [node('n1'), node('n2')];
      const bridge = createFakeBridge({
        'nodes.list': () => listed,
        'prompts.pending': () => [],
        'pods.rows': ({ nodeId }) => {
          asked++;
          if (nodeId === 'n1' || asked < 4) throw new Error('The app core is busy.');
          return { seq: 0, rows: [testRow({ uid: 'b' })] };
        },
      });
      const model = new AppModel(bridge, { requestFrame: (cb) => cb() });
      await model.start();
      expect(asked).toBe(2);
      listed = [node('n2')];
      bridge.emit('nodeRemoved', { nodeId: 'n1' });
      await vi.advanceTimersByTimeAsync(1000);
      // Only n2 was tried again.
      expect(asked).toBe(3);
      await model.resync();
      expect(asked).toBe(4);
      expect(model.pods.rows('n2').map((r) => r.uid)).toEqual(['b']);
      await vi.advanceTimersByTimeAsync(120_000);
      expect(asked).toBe(4);
    });
  });

  it('AppModel refetches a node whose batches skipped a seq', async () => {
    let snapshots = 0;
    const bridge = createFakeBridge({
      'nodes.list': () => [{ id: 'n1', label: 'x', simulated: false, spec: { kind: 'ssh' as const, host: 'x' }, state: { phase: 'live', since: 1 }, mask: '', maskPaths: [], maskHonoured: null, podCount: 0 }],
      'prompts.pending': () => [],
      'pods.rows': () => ({ seq: snapshots++ === 0 ? 0 : 7, rows: snapshots > 1 ? [testRow({ uid: 'fresh' })] : [] }),
    });
    const frames: (() => void)[] = [];
    const model = new AppModel(bridge, { requestFrame: (cb) => frames.push(cb) });
    const push = podWatches(bridge);
    await model.start();
    push({ nodeId: 'n1', seq: 5, reset: false, upserts: [testRow({ uid: 'lost' })], removals: [] });
    frames.shift()!();
    await new Promise((r) => setTimeout(r, 0));
    expect(model.pods.rows('n1').map((r) => r.uid)).toEqual(['fresh']);
  });
});

describe('PodStore: the table over several sources', () => {
  const sources: FleetSource[] = [
    { id: 'n1', label: 'worker-1' },
    { id: 'n2', label: 'worker-2' },
    { id: 'n3', label: 'snapshot.json' },
  ];
  /** The table as it was built before: every source's rows, keyed and labelled, filtered and sorted afresh. */
  const afresh = (store: PodStore, shown: readonly FleetSource[], filterText: string, order: SortOrder) => {
    const filter = parseFilter(filterText);
    const all = shown.flatMap((s) => store.rows(s.id).map((r): PodRow => ({ ...r, uid: fleetRowKey(s.id, r.uid), node: s.label })));
    return sortRows(all.filter((r) => matchesFilter(filter, r)), order);
  };

  it.each([1, 2, 3])('follows every batch, snapshot, reset and removed source exactly as filtering and sorting afresh would (seed %i)', (seed) => {
    const random = new Prng(seed);
    const row = (uid: string) =>
      testRow({ uid, namespace: random.pick(['default', 'kube-system']), name: `web-${random.int(0, 30)}`, phase: random.pick(['Running', 'Pending', 'Failed']), restarts: random.pick([0, 1, 7]) });
    const store = new PodStore();
    const seq = new Map<string, number>();
    const uids = (id: string) => store.rows(id).map((r) => r.uid);
    for (const s of sources) {
      store.applySnapshot(s.id, { seq: 1, rows: Array.from({ length: 40 }, (_, i) => row(`${s.id}-${i}`)) });
      seq.set(s.id, 1);
    }
    let filterText = '-phase:Failed';
    let order: SortOrder = { key: 'restarts', descending: true };
    let filter = parseFilter(filterText);
    let shown = sources;
    expect(store.fleetView(shown, filter, order)).toEqual(afresh(store, shown, filterText, order));
    for (let step = 0; step < 60; step++) {
      const s = random.pick(shown);
      const next = seq.get(s.id)! + 1;
      const roll = random.next();
      if (roll < 0.8) seq.set(s.id, next);
      if (roll < 0.7) {
        const upserts = Array.from({ length: random.int(0, 4) }, () => row(random.chance(0.5) ? random.pick(uids(s.id).length ? uids(s.id) : ['x']) : `${s.id}-new-${step}`));
        // A batch has each pod's last change only: never the same pod upserted and removed.
        const removals = uids(s.id).filter((uid) => random.chance(0.05) && !upserts.some((r) => r.uid === uid));
        expect(store.applyDeltas({ nodeId: s.id, seq: next, reset: false, upserts, removals }, step)).toBe('applied');
      } else if (roll < 0.8) {
        store.applyDeltas({ nodeId: s.id, seq: next, reset: true, upserts: Array.from({ length: random.int(0, 50) }, (_, i) => row(`${s.id}-reset-${i}`)), removals: [] }, step);
      } else if (roll < 0.9) {
        // A gap: the batch is held, then a snapshot comes and the held batch is replayed on it.
        expect(store.applyDeltas({ nodeId: s.id, seq: next + 1, reset: false, upserts: [row(`${s.id}-held-${step}`)], removals: [] }, step)).toBe('gap');
        store.applySnapshot(s.id, { seq: next, rows: [...store.rows(s.id).filter(() => random.chance(0.8)), row(`${s.id}-snap-${step}`)] });
        seq.set(s.id, next + 1);
      } else if (roll < 0.95) {
        filterText = random.pick(['', 'web-1', '-phase:Failed', 'ns:kube-system']);
        filter = parseFilter(filterText);
        order = random.pick<SortOrder>([{ key: 'name', descending: false }, { key: 'node', descending: true }, { key: 'restarts', descending: true }]);
      } else if (shown.length === 3) {
        // A source goes: its rows leave the table.
        store.removeNode(s.id);
        shown = shown.filter((x) => x !== s);
      }
      expect(store.fleetView(shown, filter, order), `step ${step}`).toEqual(afresh(store, shown, filterText, order));
    }
  });

  it('builds the table afresh for other sources or a renamed one, and forgets it when dropped', () => {
    const store = new PodStore();
    store.applySnapshot('n1', { seq: 1, rows: [testRow({ uid: 'a' })] });
    store.applySnapshot('n2', { seq: 1, rows: [testRow({ uid: 'a' }), testRow({ uid: 'b' })] });
    const order: SortOrder = { key: 'node', descending: false };
    const view = (shown: FleetSource[]) => store.fleetView(shown, parseFilter(''), order).map((r) => `${r.node} ${r.uid}`);
    expect(view([{ id: 'n1', label: 'one' }])).toEqual(['one n1:a']);
    expect(view([{ id: 'n1', label: 'one' }, { id: 'n2', label: 'two' }])).toEqual(['one n1:a', 'two n2:a', 'two n2:b']);
    expect(view([{ id: 'n1', label: 'renamed' }, { id: 'n2', label: 'two' }])).toEqual(['renamed n1:a', 'two n2:a', 'two n2:b']);
    store.dropFleetView();
    // Batches of a dropped table's sources cost it nothing; asked again, it is built from the rows as they are.
    store.applyDeltas({ nodeId: 'n1', seq: 2, reset: false, upserts: [testRow({ uid: 'c' })], removals: [] }, 1);
    expect(view([{ id: 'n1', label: 'one' }])).toEqual(['one n1:a', 'one n1:c']);
  });
});
