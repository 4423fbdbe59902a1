import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { applyFieldMask, parseFieldMask, type FieldMask } from '../mask/field-mask';
import { maskTree, walkMaskTree } from '../mask/mask-tree';
import { MATRIX_READ_PATHS } from '../fleet/workload-matrix';
import { Prng } from '../sim/prng';
import { generatePods } from '../sim/pod-generator';
import { loadSharedPods } from '../testing/shared-fixtures';
import { decodePod, PodDecodeError } from './decode';
import { decodePodFields } from './decode-fields';
import { encodePod } from './encode';
import { metadata, msg, str, tag, webPodBytes } from './testdata/handmade-pods';
import { ROW_READ_PATHS } from './view/pod-field-sources';

/** Generated pods of every state and kind the simulator makes, and the shared real pods when present. */
const pods: { name: string; bytes: Uint8Array }[] = [
  ...generatePods(120, { seed: 11, nodeName: 'node-a', nowMs: Date.UTC(2026, 5, 26, 10) }).map((pod, i) => ({ name: `generated[${i}]`, bytes: encodePod(pod) })),
  ...loadSharedPods().map((f) => ({ name: f.name, bytes: f.pb })),
  { name: 'handmade web-0 with unknown fields', bytes: webPodBytes({ specExtra: (s) => tag(s, 999, 0).uint32(300), containerExtra: (c) => str(c, 1000, 'hello') }) },
];

/** Masks of a few random paths anywhere in the pod schema, the same every run. */
function randomMasks(count: number): FieldMask[] {
  const paths = [...walkMaskTree(maskTree())].map((n) => n.path);
  const rng = new Prng(26);
  return Array.from({ length: count }, () => parseFieldMask(Array.from({ length: rng.int(1, 6) }, () => rng.pick(paths)).join(',')));
}

const expectSameAsWhole = (mask: FieldMask) => {
  for (const { name, bytes } of pods) {
    expect(decodePodFields(bytes, mask, name).pod, `${name} through ${mask.paths.join(',')}`).toEqual(applyFieldMask(decodePod(bytes, name).pod, mask));
  }
};

describe('decodePodFields', () => {
  it('gives exactly the masked whole decode for the fields a row and the fleet matrix read', () => {
    expectSameAsWhole(parseFieldMask(ROW_READ_PATHS.join(',')));
    expectSameAsWhole(parseFieldMask(MATRIX_READ_PATHS.join(',')));
  });

  it('gives exactly the masked whole decode for whole messages, inline embeds, maps, lists and special types', () => {
    for (const text of ['metadata', 'spec', 'status', 'metadata.managedFields', 'spec.volumes.hostPath', 'spec.containers.livenessProbe.httpGet.port', 'status.containerStatuses.resources.limits']) {
      expectSameAsWhole(parseFieldMask(text));
    }
  });

  it('gives exactly the masked whole decode for random masks anywhere in the schema', () => {
    for (const mask of randomMasks(60)) expectSameAsWhole(mask);
  });

  it('names the pod, the byte offset and the path when a length runs past its message, in a field it passes over too', () => {
    const w = protobuf.Writer.create();
    metadata(w);
    // spec: a container whose env (not read through this mask) claims 200 bytes of the few left.
    msg(w, 2, (spec) => msg(spec, 2, (c) => tag(str(c, 1, 'app'), 7, 2).uint32(200).uint32(0)));
    const bytes = w.finish();
    const mask = parseFieldMask('metadata.name,metadata.namespace,spec.containers.name');
    expect(() => decodePod(bytes, 'x.pb')).toThrowError(PodDecodeError);
    let error: PodDecodeError | undefined;
    try {
      decodePodFields(bytes, mask, 'x.pb');
    } catch (err) {
      error = err as PodDecodeError;
    }
    expect(error).toBeInstanceOf(PodDecodeError);
    expect(error!.pod).toBe('default/web-0');
    expect(error!.path).toBe('spec.containers[0]');
    expect(error!.message).toMatch(/length 200 runs past the end of its message .* at byte offset \d+/);
  });

  it('refuses truncated bytes and a wire type no pod has, as the whole decode does', () => {
    const bytes = webPodBytes();
    const mask = parseFieldMask('metadata.name,metadata.namespace,metadata.uid,status.phase');
    expect(() => decodePodFields(bytes.subarray(0, bytes.length - 5), mask)).toThrowError(/cannot decode pod default\/web-0 \(pod, uid [0-9a-f-]+\): .* at byte offset \d+/);
    expect(() => decodePodFields(Buffer.from('this is not protobuf'), mask, 'capture.pb')).toThrowError(/cannot decode pod capture\.pb: invalid wire type 4 at byte offset 1/);
    const wrongWire = protobuf.Writer.create();
    // status.conditions as a varint, in status, which the mask enters (a message it passes over is not looked into).
    msg(wrongWire, 3, (status) => tag(status, 2, 0).uint32(1));
    expect(() => decodePodFields(wrongWire.finish(), mask, 'y.pb')).toThrowError(/field conditions \(2\) has wire type 0, expected 2 at byte offset \d+ \(in status\)/);
  });
});
