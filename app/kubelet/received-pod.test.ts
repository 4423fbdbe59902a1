import { describe, expect, it } from 'vitest';
import { encodePod } from '../pod/encode';
import { applyFieldMask, parseFieldMask } from '../mask/field-mask';
import type { PodObject, PodTree } from '../pod/pod-tree';
import { podReader } from './received-pod';

const identity = { name: 'web-1', namespace: 'shop', uid: '0b6c6f5e-7d52-4a39-9b2e-2f5b2b7f2f11' };
const read = (pod: PodTree) => podReader(undefined).read(encodePod(pod), 'test pod');

describe('podReader tombstones (how the documented watch reports a removal)', () => {
  it('takes a pod that carries only its identity and a deletionTimestamp for a tombstone', () => {
    const pod = read({ metadata: { ...identity, deletionTimestamp: '2026-11-21T08:00:00Z' } } as PodTree);
    expect(pod).toMatchObject({ ...identity, tombstone: true });
  });

  it('still does when Go wrote empty spec and status messages beside it', () => {
    const pod = read({ metadata: { ...identity, deletionTimestamp: '2026-11-21T08:00:00Z', labels: {} }, spec: {}, status: {} } as PodTree);
    expect(pod.tombstone).toBe(true);
  });

  it('does not for a real pod being deleted, nor for one not being deleted', () => {
    const terminating = read({
      metadata: { ...identity, deletionTimestamp: '2026-11-21T08:00:00Z', labels: { app: 'web' } },
      spec: { containers: [{ name: 'web', image: 'registry.example.internal/web:1' }] },
    } as PodTree);
    expect(terminating.tombstone).toBe(false);
    const bare = read({ metadata: { ...identity, deletionTimestamp: '2026-11-21T08:00:00Z' }, status: { phase: 'Running' } } as PodTree);
    expect(bare.tombstone).toBe(false);
    expect(read({ metadata: identity } as PodTree).tombstone).toBe(false);
  });
});

describe('podReader with the fields its caller reads', () => {
  const pod = {
    metadata: { ...identity, labels: { app: 'web' }, annotations: { note: 'x'.repeat(200) } },
    spec: { containers: [{ name: 'web', image: 'registry.example.internal/web:1', env: [{ name: 'A', value: '1' }] }] },
    status: { phase: 'Running', podIP: '10.0.0.9' },
  } as PodTree;
  const reads = parseFieldMask('status.phase,spec.containers.image');

  it('decodes only those and the identity, as the mask of them would leave the whole pod', () => {
    const received = podReader(undefined).read(encodePod(pod), 'test pod', undefined, reads);
    expect(received.pod).toEqual(applyFieldMask(pod, parseFieldMask(`${reads.paths.join(',')},metadata.name,metadata.namespace,metadata.uid`)));
    expect(received).toMatchObject({ ...identity, tombstone: false });
  });

  it('decodes a pod being deleted whole when what it read looks like a tombstone, so a real pod is not taken for one', () => {
    const deleting = (more: PodObject) => encodePod({ ...more, metadata: { ...identity, deletionTimestamp: '2026-11-21T08:00:00Z', ...(more.metadata as PodObject) } } as PodTree);
    // Set only where the fields read do not reach: the whole pod says it is no tombstone.
    expect(podReader(undefined).read(deleting({ metadata: { labels: { app: 'web' } } }), 'test pod', undefined, reads).tombstone).toBe(false);
    expect(podReader(undefined).read(deleting({ spec: { nodeName: 'worker-1' } }), 'test pod', undefined, reads).tombstone).toBe(false);
    expect(podReader(undefined).read(deleting({}), 'test pod', undefined, reads).tombstone).toBe(true);
    expect(podReader(undefined).read(deleting({ spec: {}, status: {} }), 'test pod', undefined, reads).tombstone).toBe(true);
  });

  it('reads only those fields of a pod being deleted when they show it is no tombstone', () => {
    const terminating = { ...pod, metadata: { ...(pod.metadata as PodObject), deletionTimestamp: '2026-11-21T08:00:00Z' } } as PodTree;
    const received = podReader(undefined).read(encodePod(terminating), 'test pod', undefined, reads);
    expect(received.tombstone).toBe(false);
    expect(received.pod).toEqual(applyFieldMask(terminating, parseFieldMask(`${reads.paths.join(',')},metadata.name,metadata.namespace,metadata.uid,metadata.deletionTimestamp`)));
  });

  it('still judges on the whole pod whether the kubelet honoured a mask', () => {
    const masked = podReader(parseFieldMask('status.phase'));
    const received = masked.read(encodePod(pod), 'test pod', undefined, parseFieldMask('status.phase'));
    expect(received.maskHonoured).toBe(false);
    expect(received.pod).toEqual({ status: { phase: 'Running' } });
  });
});
