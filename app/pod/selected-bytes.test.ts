import { describe, expect, it } from 'vitest';
import { CONTAINER_READ_PATHS } from '../fleet/workload-drift';
import { parseFieldMask, type FieldMask } from '../mask/field-mask';
import { generatePods } from '../sim/pod-generator';
import { decodePodFields } from './decode-fields';
import { encodePod } from './encode';
import type { PodObject, PodTree } from './pod-tree';
import { ByteKey, selectedBytes } from './selected-bytes';
import { randomMasks, samplePods } from './testdata/sample-pods';
import { WireFormatError } from './wire-reader';

const containerMask = parseFieldMask(CONTAINER_READ_PATHS.join(','));
const keyOf = (bytes: Uint8Array, mask: FieldMask, key = new ByteKey()) => {
  selectedBytes(bytes, mask, key);
  return Buffer.from(key.view()).toString('hex');
};

/** The sample pods grouped by their key through `mask`. */
function byKey(mask: FieldMask): Map<string, { name: string; bytes: Uint8Array }[]> {
  const groups = new Map<string, { name: string; bytes: Uint8Array }[]>();
  // One ByteKey for all, as a holder reuses it from pod to pod.
  const key = new ByteKey();
  for (const pod of samplePods) {
    const k = keyOf(pod.bytes, mask, key);
    groups.set(k, [...(groups.get(k) ?? []), pod]);
  }
  return groups;
}

describe('selectedBytes', () => {
  it('gives pods the same key only when the mask decodes them alike, for the containers the matrix reads and random masks', () => {
    for (const mask of [containerMask, ...randomMasks(40)]) {
      for (const [, group] of byKey(mask)) {
        const first = decodePodFields(group[0]!.bytes, mask, group[0]!.name).pod;
        for (const { name, bytes } of group.slice(1)) expect(decodePodFields(bytes, mask, name).pod, `${name} through ${mask.paths.join(',')}`).toEqual(first);
      }
    }
  });

  it("gives a template's replicas one key for their containers, though each has its own name, node and token volume", () => {
    const groups = [...byKey(containerMask).values()];
    expect(groups.length).toBeLessThan(samplePods.length);
    expect(groups.some((g) => g.length > 2)).toBe(true);
  });

  it('tells containers apart by any byte of a field read: the image, an env value, resources, args, a name', () => {
    const pod = generatePods(40, { seed: 3, nodeName: 'node-a', nowMs: Date.UTC(2026, 10, 28) }).find((p) => {
      const c = ((p.spec as PodObject).containers as PodObject[])[0]!;
      return Array.isArray(c.env) && c.env.length > 0 && Array.isArray(c.volumeMounts) && c.volumeMounts.length > 0;
    })!;
    const edited = (edit: (container: PodObject, pod: PodTree) => void) => {
      const copy = structuredClone(pod);
      edit(((copy.spec as PodObject).containers as PodObject[])[0]!, copy);
      return keyOf(encodePod(copy), containerMask);
    };
    const own = keyOf(encodePod(pod), containerMask);
    // Fields not read: the same key.
    expect(edited((c) => ((c.volumeMounts as PodObject[])[0]!.name = 'kube-api-access-zzzzz'))).toBe(own);
    expect(edited((_, p) => (((p.metadata as PodObject).name = 'other-pod'), ((p.spec as PodObject).nodeName = 'node-b')))).toBe(own);
    // Fields read: another key each.
    const changed = [
      edited((c) => (c.image = `${String(c.image)}-hotfix`)),
      edited((c) => ((c.env as PodObject[])[0]!.value = 'changed')),
      edited((c) => (c.resources = { limits: { memory: '3Gi' } })),
      edited((c) => (c.args = ['--verbose'])),
      edited((c) => (c.name = 'renamed')),
    ];
    expect(new Set([own, ...changed]).size).toBe(changed.length + 1);
  });

  it('stops at a length that runs past its message with a WireFormatError', () => {
    const bytes = samplePods[0]!.bytes;
    expect(() => keyOf(bytes.subarray(0, bytes.length - 7), containerMask)).toThrowError(WireFormatError);
  });
});
