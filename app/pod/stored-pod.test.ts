import { describe, expect, it } from 'vitest';
import { wireMask, podReader } from '../kubelet/received-pod';
import { parseFieldMask } from '../mask/field-mask';
import { podToKubectlJson } from './kubectl-json';
import { decodeStored, sameStored } from './stored-pod';
import { str, tag, webPodBytes } from './testdata/handmade-pods';

// A pod from a newer kubelet: fields the schema does not know, which must survive being kept as bytes.
const bytes = webPodBytes({ specExtra: (s) => tag(s, 999, 0).uint32(300), containerExtra: (c) => str(c, 1000, 'hello') });

describe('a pod kept as its bytes', () => {
  it('decodes to the very tree and unknown fields it was received as, and prints the same', () => {
    const received = podReader(undefined).read(bytes, 'test pod');
    const stored = decodeStored({ bytes: new Uint8Array(bytes) });
    expect(stored).toEqual({ pod: received.pod, unknownFields: received.unknownFields });
    expect(stored.unknownFields).toHaveLength(2);
    expect(podToKubectlJson(stored.pod)).toBe(podToKubectlJson(received.pod));
  });

  it('through a mask, decodes masked as it was received (the unknown fields kept beside)', () => {
    const mask = wireMask(parseFieldMask('metadata.labels,spec.containers.image'));
    const received = podReader(mask).read(bytes, 'test pod');
    const stored = decodeStored({ bytes, mask });
    expect(stored).toEqual({ pod: received.pod, unknownFields: received.unknownFields });
    expect(Object.keys(stored.pod.spec as object)).toEqual(['containers']);
  });

  it('is the same pod when its bytes and mask paths are, whichever buffer or parse holds them', () => {
    const mask = () => parseFieldMask('metadata.name');
    expect(sameStored({ bytes, mask: mask() }, { bytes: new Uint8Array(bytes), mask: mask() })).toBe(true);
    expect(sameStored({ bytes }, { bytes, mask: mask() })).toBe(false);
    const changed = new Uint8Array(bytes);
    changed[changed.length - 1] = changed[changed.length - 1]! ^ 1;
    expect(sameStored({ bytes }, { bytes: changed })).toBe(false);
    const tree = decodeStored({ bytes });
    expect(sameStored(tree, { ...tree })).toBe(true);
    expect(sameStored(tree, decodeStored({ bytes }))).toBe(false);
  });
});
