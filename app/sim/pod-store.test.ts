import { describe, expect, it } from 'vitest';
import type { PodTree } from '../pod/pod-tree';
import { type PodEvent, PodStore } from './pod-store';

const pod = (uid: string, name = `pod-${uid}`, extra: Record<string, string> = {}): PodTree => ({
  metadata: { name, namespace: 'ns', uid, labels: extra },
  spec: { nodeName: 'n1' },
  status: { phase: 'Running' },
});

describe('PodStore', () => {
  it('lists pods sorted by UID in byte order and gets them by UID', () => {
    const store = new PodStore([pod('c'), pod('a'), pod('B'), pod('b')]);
    expect(store.list().map((p) => (p.metadata as { uid: string }).uid)).toEqual(['B', 'a', 'b', 'c']);
    expect(store.get('b')).toEqual(pod('b'));
    expect(store.get('zz')).toBeUndefined();
    expect(store.size).toBe(4);
  });

  it('emits ADDED, MODIFIED and a DELETED that carries only name, namespace and uid', () => {
    const store = new PodStore();
    const events: PodEvent[] = [];
    const unsubscribe = store.subscribe((e) => events.push(e));
    store.apply({ op: 'add', pod: pod('u1') });
    store.apply({ op: 'update', pod: pod('u1', 'pod-u1', { tier: 'web' }) });
    store.apply({ op: 'delete', uid: 'u1' });
    unsubscribe();
    store.apply({ op: 'add', pod: pod('u2') });
    expect(events.map((e) => [e.type, e.uid, e.version])).toEqual([
      ['ADDED', 'u1', 1],
      ['MODIFIED', 'u1', 2],
      ['DELETED', 'u1', 3],
    ]);
    expect(events[1]!.pod).toEqual(pod('u1', 'pod-u1', { tier: 'web' }));
    expect(events[2]!.pod).toEqual({ metadata: { name: 'pod-u1', namespace: 'ns', uid: 'u1' } });
    expect(events[1]!.previous).toEqual(pod('u1'));
    expect(events[2]!.previous).toEqual(pod('u1', 'pod-u1', { tier: 'web' }));
    expect(store.list().map((p) => (p.metadata as { uid: string }).uid)).toEqual(['u2']);
  });

  it('gives each change a new version, so cached encodings can be keyed by it', () => {
    const store = new PodStore([pod('u1')]);
    const before = store.entry('u1')!.version;
    store.apply({ op: 'update', pod: pod('u1', 'renamed') });
    expect(store.entry('u1')!.version).toBeGreaterThan(before);
    expect(store.version).toBe(2);
  });

  it('rejects impossible operations with a message naming the pod', () => {
    const store = new PodStore([pod('u1')]);
    expect(() => store.apply({ op: 'add', pod: pod('u1') })).toThrow(/cannot add pod u1: a pod with that uid exists/);
    expect(() => store.apply({ op: 'update', pod: pod('u9') })).toThrow(/cannot update pod u9: not in the store/);
    expect(() => store.apply({ op: 'delete', uid: 'u9' })).toThrow(/cannot delete pod u9/);
    expect(() => store.apply({ op: 'add', pod: { metadata: { name: 'x' } } })).toThrow(/no metadata.uid/);
  });
});
