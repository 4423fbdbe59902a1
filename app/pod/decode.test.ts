import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { decodePod, decodePods, PodDecodeError } from './decode';
import { podBytesToKubectlJson, podToKubectlJson } from './kubectl-json';
import { BIG_GENERATION, msg, str, tag, webPodBytes, webPodJson } from './testdata/handmade-pods';

describe('decodePod', () => {
  it('keeps presence: a set pointer with a zero value is kept, an unset one is absent', () => {
    const { pod } = decodePod(webPodBytes());
    const spec = pod.spec as Record<string, unknown>;
    expect(spec.priority).toBe(0);
    expect('activeDeadlineSeconds' in spec).toBe(false);
    expect((pod.metadata as Record<string, unknown>).generation).toBe(BigInt(BIG_GENERATION));
  });

  it('keeps fields it does not know (a newer kubelet) with path, number, wire type and raw value, and prints as kubectl would', () => {
    const bytes = webPodBytes({
      specExtra: (s) => tag(s, 999, 0).uint32(300),
      containerExtra: (c) => str(c, 1000, 'hello'),
    });
    const decoded = decodePod(bytes);
    expect(decoded.unknownFields).toEqual([
      { path: 'spec.containers[0]', fieldNumber: 1000, wireType: 2, raw: new Uint8Array(Buffer.from('hello')) },
      { path: 'spec', fieldNumber: 999, wireType: 0, raw: new Uint8Array([0xac, 0x02]) },
    ]);
    expect(podToKubectlJson(decoded.pod)).toBe(webPodJson);
  });

  it('accepts packed repeated integers as well as unpacked ones', () => {
    const w = protobuf.Writer.create();
    msg(w, 2, (spec) => msg(spec, 14, (psc) => tag(psc, 4, 2).fork().int64(5).int64(7).ldelim()));
    const { pod } = decodePod(w.finish());
    expect((pod.spec as any).securityContext.supplementalGroups).toEqual([5, 7]);
  });

  it('names the pod and the byte offset when the bytes are truncated', () => {
    const bytes = webPodBytes();
    const cut = bytes.subarray(0, bytes.length - 5);
    expect(() => decodePod(cut)).toThrowError(PodDecodeError);
    try {
      decodePod(cut);
    } catch (err) {
      const e = err as PodDecodeError;
      expect(e.pod).toBe('default/web-0');
      expect(e.message).toMatch(/^cannot decode pod default\/web-0 \(pod, uid [0-9a-f-]+\): .* at byte offset \d+/);
      expect(e.offset).toBeGreaterThan(0);
      expect(e.offset).toBeLessThanOrEqual(cut.length);
    }
  });

  it('uses the caller label when the pod name is not decoded yet, and rejects garbage and wrong wire types', () => {
    expect(() => decodePod(Buffer.from('this is not protobuf'), 'capture.pb')).toThrowError(/cannot decode pod capture\.pb: invalid wire type 4 at byte offset 1/);
    const wrongWire = protobuf.Writer.create();
    tag(wrongWire, 1, 0).uint32(5);
    expect(() => decodePod(wrongWire.finish(), 'x.pb')).toThrowError(/field metadata \(1\) has wire type 0, expected 2 at byte offset 0/);
    const nested = protobuf.Writer.create();
    msg(nested, 2, (spec) => msg(spec, 2, (c) => tag(c, 1, 0).uint32(1)));
    expect(() => decodePod(nested.finish(), 'y.pb')).toThrowError(/field name \(1\).* \(in spec\.containers\[0\]\)/);
  });

  it('refuses a length or tag varint beyond 32 bits, as Go does, instead of wrapping it', () => {
    // metadata (field 1), length 2^32+9 (wrapped: 9), then 9 bytes that are a valid ObjectMeta (name "abcdefg").
    const name = [0x0a, 0x07, ...Buffer.from('abcdefg')];
    const wrapped = new Uint8Array([0x0a, 0x89, 0x80, 0x80, 0x80, 0x10, ...name]);
    expect(() => decodePod(wrapped, 'x.pb')).toThrowError(/cannot decode pod x\.pb: a tag or length varint larger than 4294967295 \(2\^32-1\), which protobuf refuses at byte offset 1/);
    // A field number beyond int32 (tag 2^35 + 0x0a) is refused too, not read as metadata.
    const bigTag = new Uint8Array([0x8a, 0x80, 0x80, 0x80, 0x80, 0x01, 0x09, ...[0x0a, 0x07, ...Buffer.from('abcdefg')]]);
    expect(() => decodePod(bigTag, 'y.pb')).toThrowError(/larger than 4294967295/);
    // Padded but in range (Go accepts non-minimal varints): still read.
    const padded = new Uint8Array([0x0a, 0x89, 0x80, 0x80, 0x80, 0x00, ...name]);
    expect((decodePod(padded).pod.metadata as Record<string, unknown>).name).toBe('abcdefg');
  });

  it('rejects a field that runs past the end of its time, map entry or packed list instead of reading on', () => {
    // Each inner message claims 2 bytes, but its varint takes 3: the third byte belongs to the parent.
    const overrun = (inner: (w: protobuf.Writer) => void) => {
      const w = protobuf.Writer.create();
      msg(w, 1, (m) => {
        str(m, 1, 'web-0');
        inner(m);
      });
      return w.finish();
    };
    const cases = {
      time: overrun((m) => tag(m, 8, 2).uint32(2).uint32(8).uint32(0x4000)),
      labelEntry: overrun((m) => tag(m, 11, 2).uint32(2).uint32(3 << 3).uint32(0x4000)),
      packed: (() => {
        const w = protobuf.Writer.create();
        msg(w, 2, (spec) => msg(spec, 14, (psc) => tag(psc, 4, 2).uint32(1).uint32(0x4000)));
        return w.finish();
      })(),
    };
    for (const [name, bytes] of Object.entries(cases)) {
      expect(() => decodePod(bytes, name), name).toThrowError(/runs past the end of its message/);
      expect(() => podBytesToKubectlJson(bytes, {}, name), name).toThrowError(/runs past the end of its message/);
    }
  });

  it('decodes a list so that one bad pod never hides the others', () => {
    const good = webPodBytes();
    const outcomes = decodePods([good, good.subarray(0, 30), good]);
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, true]);
    const bad = outcomes[1]!;
    expect(!bad.ok && bad.error.message).toMatch(/pods\[1\]|default\/web-0/);
  });
});
