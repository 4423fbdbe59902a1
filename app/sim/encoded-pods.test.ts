import { describe, expect, it } from 'vitest';
import { parseFieldMask } from '../mask/field-mask';
import { decodePod } from '../pod/decode';
import { encodePod } from '../pod/encode';
import type { PodObject, PodTree } from '../pod/pod-tree';
import { EncodedPods } from './encoded-pods';
import { PodStore } from './pod-store';

const pod = (uid: string, phase: string): PodTree => ({ metadata: { name: `p-${uid}`, namespace: 'ns', uid }, status: { phase } });
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('EncodedPods', () => {
  it('encodes each pod version once, follows changes, and never lets an old snapshot evict the current one', () => {
    const store = new PodStore([pod('a', 'Pending'), pod('b', 'Running')]);
    const encoded = EncodedPods.following(store);
    const first = store.entry('a')!;
    const bytes = encoded.bytes('a', first);
    expect(encoded.bytes('a', store.entry('a')!)).toBe(bytes); // cached, not re-encoded
    expect(hex(bytes)).toBe(hex(encodePod(pod('a', 'Pending'))));

    store.apply({ op: 'update', pod: pod('a', 'Running') });
    const current = encoded.bytes('a', store.entry('a')!);
    expect(hex(current)).toBe(hex(encodePod(pod('a', 'Running'))));
    // A watch replay still sending the older snapshot gets the older bytes...
    expect(hex(encoded.bytes('a', first))).toBe(hex(bytes));
    // ...and the current version stays cached.
    expect(encoded.bytes('a', store.entry('a')!)).toBe(current);
  });

  it('keeps masked encodings apart from whole ones', () => {
    const store = new PodStore([pod('a', 'Pending')]);
    const encoded = EncodedPods.following(store);
    const mask = parseFieldMask('status.phase');
    const masked = encoded.bytes('a', store.entry('a')!, mask);
    expect(encoded.bytes('a', store.entry('a')!, parseFieldMask('status.phase'))).toBe(masked);
    const decoded = decodePod(masked).pod;
    expect((decoded.status as PodObject).phase).toBe('Pending');
    expect((decoded.metadata as PodObject).uid).toBe('');
    expect(hex(encoded.bytes('a', store.entry('a')!))).toBe(hex(encodePod(pod('a', 'Pending'))));
  });

  it('does not let a pod the encoder refuses break the store', () => {
    const store = new PodStore();
    const encoded = EncodedPods.following(store);
    const broken = { metadata: { uid: 'x', creationTimestamp: 'yesterday' } };
    expect(() => store.apply({ op: 'add', pod: broken })).not.toThrow();
    expect(() => encoded.bytes('x', store.entry('x')!)).toThrow(/"yesterday"/);
  });
});
