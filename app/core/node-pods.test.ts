import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PodDeltas, PodRow } from '../contract';
import type { DecodedPod } from '../pod/pod-tree';
import { decodeStored, type StoredPod } from '../pod/stored-pod';
import type { AppEvent } from './app-event';
import { applyFieldMask, parseFieldMask } from '../mask/field-mask';
import { NodePods, rowOfPod } from './node-pods';
import { matrixPodOf } from '../fleet/workload-matrix';
import { SharedValues } from '../util/shared-values';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function pod(uid: string, phase: string, restarts = 0): DecodedPod {
  return {
    unknownFields: [],
    pod: {
      metadata: { name: `web-${uid}`, namespace: 'shop', uid, creationTimestamp: '2026-11-21T05:00:00Z' },
      spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'nginx:1.27' }] },
      status: {
        phase,
        podIP: phase === 'Running' ? '10.0.0.7' : undefined,
        containerStatuses: [{ name: 'app', ready: phase === 'Running', restartCount: restarts, image: 'nginx:1.27' }],
      },
    },
  };
}

function recorder() {
  const events: AppEvent[] = [];
  const deltas = () => events.flatMap((e) => (e.name === 'podDeltas' ? [e.payload as PodDeltas] : []));
  const lines = () => events.flatMap((e) => (e.name === 'watchEvents' ? e.payload.lines : []));
  return { events, emit: (e: AppEvent) => events.push(e), deltas, lines };
}

describe('NodePods', () => {
  it('keeps what the matrix reads of a pod as the source took it, drops it for a new mask, and takes it again from the source reopened with that mask', () => {
    const pods = new NodePods('n1', recorder().emit, 1);
    const stored = pod('a', 'Running');
    const tree = decodeStored(stored).pod;
    const matrix = matrixPodOf(tree, new SharedValues());
    pods.replaceAll([{ ...stored, row: rowOfPod(tree, null), matrix }]);
    expect(pods.get('a')!.matrix).toBe(matrix);
    pods.setMask(parseFieldMask('metadata,status'));
    expect(pods.get('a')!.matrix).toBeUndefined();
    const masked = applyFieldMask(tree, parseFieldMask('metadata,status'));
    const again = matrixPodOf(masked, new SharedValues());
    pods.replaceAll([{ ...stored, row: rowOfPod(masked, null), matrix: again }]);
    expect(pods.get('a')!.matrix).toBe(again);
    pods.close();
  });

  it('sends a burst of changes as one batch per frame, the last change per pod winning', async () => {
    const r = recorder();
    const pods = new NodePods('n1', r.emit, 10);
    pods.replaceAll([pod('a', 'Pending')]);
    await sleep(30);
    expect(r.deltas()).toHaveLength(1);
    expect(r.deltas()[0]).toMatchObject({ nodeId: 'n1', seq: 1, reset: true, removals: [] });

    for (let i = 1; i <= 50; i++) pods.upsert('MODIFIED', pod('a', 'Running', i));
    pods.upsert('ADDED', pod('b', 'Pending'));
    pods.remove(pod('b', 'Pending'));
    await sleep(30);
    const batches = r.deltas().slice(1);
    expect(batches).toHaveLength(1);
    expect(batches[0]).toMatchObject({ seq: 2, reset: false, removals: ['b'] });
    expect(batches[0]!.upserts).toHaveLength(1);
    expect(batches[0]!.upserts[0]).toMatchObject({ uid: 'a', phase: 'Running', restarts: 50, ready: 1, total: 1 });
    pods.close();
  });

  it('feeds one line per event saying what changed', async () => {
    const r = recorder();
    const pods = new NodePods('n1', r.emit, 5);
    pods.upsert('ADDED', pod('a', 'Pending'));
    pods.upsert('MODIFIED', pod('a', 'Running'));
    pods.upsert('MODIFIED', pod('a', 'Running', 1));
    pods.remove(pod('a', 'Running', 1));
    await sleep(20);
    expect(r.lines().map((l) => [l.type, l.name, l.change])).toEqual([
      ['ADDED', 'web-a', 'added (Pending)'],
      ['MODIFIED', 'web-a', 'status Pending → Running, ready 0/1 → 1/1, IP 10.0.0.7'],
      ['MODIFIED', 'web-a', 'restarted (1 restarts)'],
      ['DELETED', 'web-a', 'deleted'],
    ]);
    pods.close();
  });

  it('returns a snapshot whose seq covers everything sent so far', async () => {
    const r = recorder();
    const pods = new NodePods('n1', r.emit, 1000);
    pods.replaceAll([pod('a', 'Running'), pod('b', 'Pending')]);
    pods.upsert('MODIFIED', pod('b', 'Running'));
    const snap = pods.snapshot();
    expect(snap.seq).toBe(r.deltas().at(-1)!.seq);
    expect(snap.rows.map((row) => [row.uid, row.phase]).sort()).toEqual([
      ['a', 'Running'],
      ['b', 'Running'],
    ]);
    pods.close();
  });

  it('re-derives every row when the field mask changes, as a reset', async () => {
    const r = recorder();
    const pods = new NodePods('n1', r.emit, 5);
    pods.replaceAll([pod('a', 'Running')]);
    pods.setMask(parseFieldMask('metadata.name'));
    await sleep(20);
    const last = r.deltas().at(-1)!;
    expect(last.reset).toBe(true);
    expect(last.upserts[0]).toMatchObject({ uid: 'a', phase: '', name: 'web-a' });
    expect(decodeStored(pods.get('a')!.pod as StoredPod).pod.status).toBeDefined();
    pods.close();
  });
});

describe('NodePods batches, validated where they are made', () => {
  afterEach(() => vi.restoreAllMocks());

  it('drops a batch with a malformed row, saying why, and sends the next good one', async () => {
    const said = vi.spyOn(console, 'error').mockImplementation(() => {});
    const r = recorder();
    const pods = new NodePods('n1', r.emit, 1);
    // A row a buggy source made: the core checks it before any window would get it.
    pods.upsert('ADDED', { ...pod('a', 'Running'), row: { uid: 'a', name: 'web-a', restarts: 'many' } as unknown as PodRow });
    // Its feed line (no namespace) is dropped as well: both are checked before any window would get them.
    await expect.poll(() => said.mock.calls.map((c) => String(c[0])).sort()).toEqual([expect.stringMatching(/dropped a pod batch: .*restarts/s), expect.stringMatching(/dropped feed lines: .*namespace/s)]);
    expect(r.deltas()).toEqual([]);
    pods.upsert('ADDED', pod('b', 'Pending'));
    await expect.poll(() => r.deltas().length).toBe(1);
    expect(r.deltas()[0]!.upserts.map((row) => row.uid)).toEqual(['b']);
  });
});

describe('rowOfPod', () => {
  it('keeps every label of the pod, even one whose key is __proto__ (maps come from the wire as they are)', () => {
    const tree = decodeStored(pod('a', 'Running')).pod;
    (tree.metadata as Record<string, unknown>).labels = JSON.parse('{"app":"web","__proto__":"x"}');
    expect(Object.entries(rowOfPod(tree, null).labels).sort()).toEqual([
      ['__proto__', 'x'],
      ['app', 'web'],
    ]);
  });
});
