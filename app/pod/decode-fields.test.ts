import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { applyFieldMask, parseFieldMask, type FieldMask } from '../mask/field-mask';
import { MATRIX_READ_PATHS } from '../fleet/workload-matrix';
import { decodePod, PodDecodeError } from './decode';
import { decodePodFields } from './decode-fields';
import { metadata, msg, str, tag, webPodBytes } from './testdata/handmade-pods';
import { randomMasks, samplePods } from './testdata/sample-pods';
import { ROW_READ_PATHS } from './view/pod-field-sources';

const expectSameAsWhole = (mask: FieldMask) => {
  for (const { name, bytes } of samplePods) {
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
