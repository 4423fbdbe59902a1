/**
 * The project's own pod fixtures, built field by field with protobufjs's Writer from upstream field numbers
 * (independent of our schema, decoder and encoder), with the kubectl JSON written out by hand from Go's rules.
 * They keep the tests standing when the shared real-pod fixtures are absent.
 */
import protobuf from 'protobufjs';

type W = protobuf.Writer;
const LEN = 2;
const VARINT = 0;

export const tag = (w: W, n: number, wire: number): W => w.uint32((n << 3) | wire);
export const str = (w: W, n: number, s: string): W => tag(w, n, LEN).string(s);
export const msg = (w: W, n: number, body: (w: W) => void): W => {
  tag(w, n, LEN).fork();
  body(w);
  return w.ldelim();
};
export const mapEntry = (w: W, n: number, k: string, v: string): W => msg(w, n, (e) => str(str(e, 1, k), 2, v));

/** 2026-06-26T10:12:19Z */
export const T0 = 1782468739;
export const BIG_GENERATION = '1152921504606846977'; // 2^60 + 1: not exact as a double

export function metadata(w: W, extra?: (w: W) => void): void {
  msg(w, 1, (m) => {
    str(m, 1, 'web-0');
    str(m, 3, 'default');
    str(m, 5, '0b6c6f5e-7d52-4a39-9b2e-2f5b2b7f2f11');
    tag(m, 7, VARINT).int64(BIG_GENERATION);
    msg(m, 8, (t) => tag(tag(t, 1, VARINT).int64(T0), 2, VARINT).int32(0));
    mapEntry(m, 11, 'b', '2');
    mapEntry(m, 11, 'a', '1');
    mapEntry(m, 11, 'é', 'x');
    mapEntry(m, 11, 'Z', 'z');
    mapEntry(m, 12, 'note', '<a> & b\u2028c\u0001');
    extra?.(m);
  });
}

/** A small Running pod exercising the Go JSON rules; `extra` appends fields (e.g. unknown ones) to the spec. */
export function webPodBytes(opts: { specExtra?: (w: W) => void; containerExtra?: (w: W) => void; metaExtra?: (w: W) => void } = {}): Uint8Array {
  const w = protobuf.Writer.create();
  metadata(w, opts.metaExtra);
  msg(w, 2, (spec) => {
    msg(spec, 2, (c) => {
      str(c, 1, 'app');
      str(c, 2, 'nginx:1.27');
      msg(c, 8, () => {});
      opts.containerExtra?.(c);
    });
    tag(spec, 11, VARINT).bool(false); // hostNetwork: non-pointer with omitempty -> not printed
    tag(spec, 25, VARINT).int32(0); // priority: *int32 present with 0 -> printed
    opts.specExtra?.(spec);
  });
  msg(w, 3, (status) => {
    str(status, 1, 'Running');
    msg(status, 2, (cond) => {
      str(cond, 1, 'Ready');
      str(cond, 2, 'True');
      msg(cond, 3, () => {}); // lastProbeTime: zero Time -> null
      msg(cond, 4, (t) => tag(tag(t, 1, VARINT).int64(T0), 2, VARINT).int32(0));
    });
  });
  return w.finish();
}

export const webPodJson = `{
    "apiVersion": "v1",
    "kind": "Pod",
    "metadata": {
        "annotations": {
            "note": "\\u003ca\\u003e \\u0026 b\\u2028c\\u0001"
        },
        "creationTimestamp": "2026-06-26T10:12:19Z",
        "generation": ${BIG_GENERATION},
        "labels": {
            "Z": "z",
            "a": "1",
            "b": "2",
            "é": "x"
        },
        "name": "web-0",
        "namespace": "default",
        "uid": "0b6c6f5e-7d52-4a39-9b2e-2f5b2b7f2f11"
    },
    "spec": {
        "containers": [
            {
                "image": "nginx:1.27",
                "name": "app",
                "resources": {}
            }
        ],
        "priority": 0
    },
    "status": {
        "conditions": [
            {
                "lastProbeTime": null,
                "lastTransitionTime": "2026-06-26T10:12:19Z",
                "status": "True",
                "type": "Ready"
            }
        ],
        "phase": "Running"
    }
}
`;

/** managedFields[0] with FieldsV1 raw JSON in wire order; kubectl prints it parsed and sorted. */
export function withManagedFields(m: W): void {
  msg(m, 17, (e) => {
    str(e, 1, 'kubelet');
    str(e, 2, 'Update');
    str(e, 3, 'v1');
    msg(e, 4, (t) => tag(tag(t, 1, VARINT).int64(T0), 2, VARINT).int32(0));
    str(e, 6, 'FieldsV1');
    msg(e, 7, (f) => tag(f, 1, LEN).bytes(Buffer.from('{"f:status":{"f:phase":{},".":{},"f:conditions":{"k:{\\"type\\":\\"Ready\\"}":{}}}}')));
    str(e, 8, 'status');
  });
}

/** FieldsV1 JSON nested `depth` levels: `{"f:a":{"f:a":...{}}}`. */
export const nestedFieldsV1 = (depth: number): string => `${'{"f:a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;

/** managedFields[0] whose FieldsV1 nests `depth` levels (kubectl's output: kubectl-managed-fields-140-deep.json). */
export const withDeepManagedFields =
  (depth: number) =>
  (m: W): void => {
    msg(m, 17, (e) => {
      str(e, 1, 'm');
      str(e, 2, 'Update');
      str(e, 3, 'v1');
      str(e, 6, 'FieldsV1');
      msg(e, 7, (f) => tag(f, 1, LEN).bytes(Buffer.from(nestedFieldsV1(depth))));
    });
  };

export const managedFieldsJson = `        "managedFields": [
            {
                "apiVersion": "v1",
                "fieldsType": "FieldsV1",
                "fieldsV1": {
                    "f:status": {
                        ".": {},
                        "f:conditions": {
                            "k:{\\"type\\":\\"Ready\\"}": {}
                        },
                        "f:phase": {}
                    }
                },
                "manager": "kubelet",
                "operation": "Update",
                "subresource": "status",
                "time": "2026-06-26T10:12:19Z"
            }
        ],
`;

/** A hostPath volume: Volume.volumeSource is inlined, so hostPath prints beside name. */
export function specWithHostPathVolume(spec: W): void {
  msg(spec, 1, (v) => {
    str(v, 1, 'data');
    msg(v, 2, (src) => msg(src, 1, (hp) => str(hp, 1, '/var/data')));
  });
}
