import { describe, expect, it } from 'vitest';
import type { PodRow } from '../../app/contract/pods';
import { testRow } from '../../app/contract/testing/test-row';
import { Prng } from '../../app/sim/prng';
import { matchesFilter, parseFilter, type ParsedFilter } from '../../app/pod/view/filter-language';
import { RowIndex } from './row-index';
import type { PodMetricsView } from '../../app/pod/view/pod-metrics';
import { SORT_KEYS, sortRows, type MetricsOf, type SortOrder } from './sort-rows';

const FILTERS = ['', 'web', 'ns:kube-system', '-phase:Running', 'is:restarted label:app=db', 'is:notready', 'owner:DaemonSet,Job'];
const NAMESPACES = ['default', 'kube-system', 'monitoring', 'Apps'];
const PHASES = ['Running', 'Pending', 'Failed', 'Succeeded'];

/** A row with few distinct values per column, so keys tie often and the tie-breaker is exercised. */
function randomRow(random: () => number, uid: string): PodRow {
  const pick = <T,>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  const total = 1 + Math.floor(random() * 3);
  return testRow({
    uid,
    namespace: pick(NAMESPACES),
    name: `${pick(['web', 'db', 'cache', 'Web'])}-${Math.floor(random() * 20)}`,
    phase: pick(PHASES),
    status: pick(['Running', 'Pending', 'CrashLoopBackOff', 'Completed']),
    ready: Math.floor(random() * (total + 1)),
    total,
    restarts: pick([0, 0, 1, 7, 12]),
    createdAt: pick(['2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z', null, 'not a time']) as string,
    podIP: pick(['', '10.0.0.9', '10.0.0.10', '172.18.0.2', 'fd00::1']),
    ownerKind: pick(['ReplicaSet', 'DaemonSet', 'Job', '']),
    isStatic: random() < 0.1,
    labels: random() < 0.5 ? { app: pick(['web', 'db']) } : {},
    deleting: random() < 0.1,
  });
}

const expected = (rows: Map<string, PodRow>, filter: ParsedFilter, order: SortOrder) =>
  sortRows([...rows.values()].filter((r) => matchesFilter(filter, r)), order).map((r) => r.uid);

describe('RowIndex', () => {
  it.each([1, 2, 3, 4, 5, 6])('matches a full filter and sort after every batch of a random change sequence (seed %i)', (seed) => {
    const prng = new Prng(seed);
    const random = () => prng.next();
    const truth = new Map<string, PodRow>();
    let next = 0;
    for (let i = 0; i < 200; i++) {
      const row = randomRow(random, `u${next++}`);
      truth.set(row.uid, row);
    }
    let filter = parseFilter(FILTERS[seed % FILTERS.length]!);
    let order: SortOrder = { key: SORT_KEYS[seed % SORT_KEYS.length]!, descending: seed % 2 === 0 };
    const index = new RowIndex(order, filter, truth.values());
    expect(index.rows().map((r) => r.uid)).toEqual(expected(truth, filter, order));

    for (let step = 0; step < 300; step++) {
      const choice = random();
      if (choice < 0.05) {
        filter = parseFilter(FILTERS[Math.floor(random() * FILTERS.length)]!);
        index.setFilter(filter);
      } else if (choice < 0.1) {
        order = { key: SORT_KEYS[Math.floor(random() * SORT_KEYS.length)]!, descending: random() < 0.5 };
        index.setOrder(order);
      } else {
        // A batch as the hub sends it: each pod at most once, upserted (new or changed) or removed.
        const upserts = new Map<string, PodRow>();
        const removals = new Set<string>();
        const uids = [...truth.keys()];
        // Mostly small batches; now and then one big enough to be rebuilt rather than placed.
        const size = random() < 0.05 ? 150 : 1 + Math.floor(random() * 8);
        for (let i = 0; i < size; i++) {
          const what = random();
          const uid = uids.length && what < 0.7 ? uids[Math.floor(random() * uids.length)]! : `u${next++}`;
          if (upserts.has(uid) || removals.has(uid)) continue;
          if (what < 0.25 && truth.has(uid)) {
            removals.add(uid);
            truth.delete(uid);
          } else {
            const row = randomRow(random, uid);
            upserts.set(uid, row);
            truth.set(uid, row);
          }
        }
        // A removal of a pod never shown (it came and went between two snapshots) is harmless.
        if (random() < 0.1) removals.add('never-seen');
        index.apply([...upserts.values()], [...removals]);
      }
      expect(index.rows().map((r) => r.uid)).toEqual(expected(truth, filter, order));
      expect(index.size).toBe(truth.size);
    }
  });

  it('filters as a filter is typed on and erased, with changes between keystrokes, as a full filter would', () => {
    const prng = new Prng(9);
    const random = () => prng.next();
    const truth = new Map<string, PodRow>();
    for (let i = 0; i < 300; i++) truth.set(`u${i}`, randomRow(random, `u${i}`));
    const order: SortOrder = { key: 'name', descending: false };
    const index = new RowIndex(order, parseFilter(''), truth.values());
    const typed = ['w', 'we', 'web', 'web-', 'web-1', 'web-1 ns:default', 'web-1', 'web', 'w', '', '-w', '-we', 'is:ready', 'is:ready c', 'is:ready ca', 'is:ready c'];
    let next = 300;
    for (const text of typed) {
      // A pod changed, one added and one removed between keystrokes.
      const [changed, removed] = [...truth.keys()].slice(0, 2) as [string, string];
      const upserts = [randomRow(random, changed), randomRow(random, `u${next++}`)];
      truth.delete(removed);
      for (const row of upserts) truth.set(row.uid, row);
      index.apply(upserts, [removed]);
      const filter = parseFilter(text);
      index.setFilter(filter);
      expect(index.rows().map((r) => r.uid), text).toEqual(expected(truth, filter, order));
    }
  });

  it('turns the order of a column round, ties still by namespace and name, with changes between clicks', () => {
    const prng = new Prng(11);
    const random = () => prng.next();
    const truth = new Map<string, PodRow>();
    for (let i = 0; i < 300; i++) truth.set(`u${i}`, randomRow(random, `u${i}`));
    const filter = parseFilter('');
    const index = new RowIndex({ key: 'namespace', descending: false }, filter, truth.values());
    let next = 300;
    for (const order of [
      { key: 'status', descending: false },
      { key: 'status', descending: true },
      { key: 'status', descending: false },
      { key: 'restarts', descending: true },
      { key: 'restarts', descending: false },
    ] as SortOrder[]) {
      const row = randomRow(random, `u${next++}`);
      truth.set(row.uid, row);
      index.apply([row], []);
      index.setOrder(order);
      expect(index.rows().map((r) => r.uid)).toEqual(expected(truth, filter, order));
    }
  });

  it('keeps handing the table the same array while rows change, and a new one when the filter changes', () => {
    const order: SortOrder = { key: 'name', descending: false };
    const index = new RowIndex(order, parseFilter(''), [testRow({ uid: 'b' }), testRow({ uid: 'a' })]);
    const first = index.rows();
    index.apply([testRow({ uid: 'c' })], ['a']);
    expect(index.rows()).toBe(first);
    expect(first.map((r) => r.uid)).toEqual(['b', 'c']);
    index.setOrder({ key: 'name', descending: false });
    expect(index.rows()).toBe(first);
    index.setFilter(parseFilter('c'));
    expect(index.rows().map((r) => r.uid)).toEqual(['c']);
  });

  it('sorts again by a metric and filters again by probes when new metrics come, and leaves other views alone', () => {
    /** Metrics as a REST node reads them: CPU per pod, and one probe result per pod. */
    const reading = (cpu: Record<string, number>, failing: string[]): MetricsOf => (row) => ({
      usage: row.uid in cpu ? { value: { cpuCores: cpu[row.uid], containers: {} } } : { absent: 'not sampled' },
      probes: { value: { c: { liveness: { successful: 1, failed: 0, unknown: 0, last: failing.includes(row.uid) ? 'failed' : 'successful' } } } },
      resources: { absent: 'no socket' },
    }) satisfies PodMetricsView;
    const rows = ['a', 'b', 'c'].map((uid) => testRow({ uid, name: uid }));
    const first = reading({ a: 0.1, b: 0.5 }, ['a']);
    const byCpu = new RowIndex({ key: 'cpu', descending: true }, parseFilter(''), rows, first);
    // A pod without a reading sorts last.
    expect(byCpu.rows().map((r) => r.uid)).toEqual(['b', 'a', 'c']);
    const second = reading({ a: 0.9, b: 0.5, c: 0.2 }, ['b']);
    byCpu.setMetrics(second);
    expect(byCpu.rows().map((r) => r.uid)).toEqual(['a', 'b', 'c']);

    const failing = new RowIndex({ key: 'name', descending: false }, parseFilter('probe:failed'), rows, first);
    expect(failing.rows().map((r) => r.uid)).toEqual(['a']);
    failing.setMetrics(second);
    expect(failing.rows().map((r) => r.uid)).toEqual(['b']);

    const byName = new RowIndex({ key: 'name', descending: false }, parseFilter(''), rows, first);
    const held = byName.rows();
    byName.setMetrics(second);
    expect(byName.rows()).toBe(held);
  });
});
