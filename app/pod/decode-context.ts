/**
 * What the generated per-message functions (the tree decoder and the bytes -> JSON printer) share while
 * reading one pod: the reader, the field path, the unknown fields, and the special types' wire forms.
 */
import { WIRE_LEN, WIRE_VARINT, type FieldSchema, type MessageSchema } from '../schema/pod-schema';
import { setKey, type PodObject, type PodValue, type UnknownField } from './pod-tree';
import { WireFormatError, WireReader } from './wire-reader';

/** Go's zero time: 0001-01-01T00:00:00Z, printed as null like an absent time. */
const GO_ZERO_TIME_SECONDS = -62135596800;

const pad2 = (n: number): string => (n < 10 ? `0${n}` : `${n}`);

/** RFC 3339 to the second, as Go's metav1.Time prints; by arithmetic because Date is slow on this path. */
export function timeToJson(seconds: number | bigint): string | null {
  if (seconds === GO_ZERO_TIME_SECONDS) return null;
  const secs = Number(seconds);
  const days = Math.floor(secs / 86400);
  const rem = secs - days * 86400;
  // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  if (y < 0 || y > 9999) return new Date(secs * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const h = Math.floor(rem / 3600);
  const min = Math.floor((rem % 3600) / 60);
  return `${String(y).padStart(4, '0')}-${pad2(m)}-${pad2(d)}T${pad2(h)}:${pad2(min)}:${pad2(rem % 60)}Z`;
}

/**
 * The deepest FieldsV1 content kubectl can print: Go's encoding/json refuses a document nested deeper than
 * 10000 levels, and a pod's fieldsV1 starts 4 levels down (pod, metadata, managedFields, entry). The kubectl
 * oracle agrees: 9996 levels print, 9997 fail with "exceeded max depth".
 */
export const FIELDS_V1_MAX_DEPTH = 9996;

/** How deep JSON text in `buf[start, end)` nests, counting brackets outside strings (the text is parsed after). */
function jsonDepth(buf: Uint8Array, start: number, end: number): number {
  let depth = 0;
  let deepest = 0;
  for (let i = start; i < end; i++) {
    const b = buf[i]!;
    if (b === 0x7b || b === 0x5b) {
      if (++depth > deepest) deepest = depth;
    } else if (b === 0x7d || b === 0x5d) depth--;
    else if (b === 0x22) {
      // Skip the string, escapes included.
      for (i++; i < end && buf[i] !== 0x22; i++) if (buf[i] === 0x5c) i++;
    }
  }
  return deepest;
}

function wrongWireType(field: FieldSchema, tag: number, tagStart: number): WireFormatError {
  return new WireFormatError(`field ${field.json} (${field.number}) has wire type ${tag & 7}, expected ${field.wireType}`, tagStart);
}

/** State of one pod's decoding that the generated functions share: the field path and unknown fields. */
export class DecodeContext {
  readonly unknownFields: UnknownField[] = [];
  /** Path segments of the message being decoded, rendered only when an error or unknown field needs them. */
  readonly path: (string | number)[] = [];

  constructor(readonly r: WireReader) {}

  pathString(): string {
    let s = '';
    for (const seg of this.path) s += typeof seg === 'number' ? `[${seg}]` : s ? `.${seg}` : seg;
    return s;
  }

  /** A tag the generated switch does not expect: an unknown field, or a known one with a wrong wire type. */
  other(schema: MessageSchema, tag: number, tagStart: number): void {
    const field = schema.byNumber[tag >>> 3];
    if (field !== undefined) throw wrongWireType(field, tag, tagStart);
    if (tag >>> 3 === 0) throw new WireFormatError('field number 0 is invalid', tagStart);
    this.unknown(tag >>> 3, tag & 7);
  }

  /**
   * A field a pruned decoder (decode-fields.ts) does not read: passed over by its length (which must stay
   * within its message), refused as `other` refuses a tag no pod can have. Unknown fields are not kept.
   */
  skipUnread(schema: MessageSchema, tag: number, tagStart: number): void {
    const wireType = tag & 7;
    const field = schema.byNumber[tag >>> 3];
    if (field !== undefined && wireType !== field.wireType && !(field.repeated && field.wireType === WIRE_VARINT && wireType === WIRE_LEN)) {
      throw wrongWireType(field, tag, tagStart);
    }
    if (tag >>> 3 === 0) throw new WireFormatError('field number 0 is invalid', tagStart);
    this.r.skip(wireType);
  }

  unknown(fieldNumber: number, wireType: number): void {
    const r = this.r;
    const payloadStart = r.pos;
    r.skip(wireType);
    let raw = r.buf.subarray(payloadStart, r.pos);
    if (wireType === WIRE_LEN) {
      // Keep the payload without its length prefix.
      const inner = new WireReader(r.buf, payloadStart, r.pos);
      inner.uint32();
      raw = r.buf.subarray(inner.pos, r.pos);
    }
    // A plain Uint8Array copy: the input may be a Buffer over a larger pool, and raw values cross IPC.
    this.unknownFields.push({ path: this.pathString(), fieldNumber, wireType, raw: new Uint8Array(raw) });
  }

  /** Go's Time.Unmarshal: empty bytes are the zero time; otherwise seconds count (nanos are dropped). */
  time(): string | null {
    const r = this.r;
    const end = r.lengthDelimited();
    if (r.pos === end) return null;
    let seconds: number | bigint = 0;
    while (r.pos < end) {
      const tag = r.uint32();
      if (tag === 8) seconds = r.int64();
      else if (tag === 16) r.int64();
      else this.unknown(tag >>> 3, tag & 7);
    }
    r.expectEnd(end);
    return timeToJson(seconds);
  }

  /** Quantity's JSON is its (canonical) string; an empty one is zero. */
  quantity(): string {
    const r = this.r;
    const end = r.lengthDelimited();
    let value = '0';
    while (r.pos < end) {
      const tag = r.uint32();
      if (tag === 10) value = r.string(r.lengthDelimited());
      else this.unknown(tag >>> 3, tag & 7);
    }
    r.expectEnd(end);
    return value;
  }

  intOrString(): number | string {
    const r = this.r;
    const end = r.lengthDelimited();
    let type: number | bigint = 0;
    let intVal = 0;
    let strVal = '';
    while (r.pos < end) {
      const tag = r.uint32();
      if (tag === 8) type = r.int64();
      else if (tag === 16) intVal = r.int32();
      else if (tag === 26) strVal = r.string(r.lengthDelimited());
      else this.unknown(tag >>> 3, tag & 7);
    }
    r.expectEnd(end);
    return Number(type) === 1 ? strVal : intVal;
  }

  /** FieldsV1's raw bytes are JSON (managedFields); kubectl prints them parsed. */
  fieldsV1(): PodValue {
    const r = this.r;
    const end = r.lengthDelimited();
    let value: PodValue = null;
    while (r.pos < end) {
      const tag = r.uint32();
      if (tag === 10) {
        const start = r.pos;
        const end = r.lengthDelimited();
        const depth = jsonDepth(r.buf, r.pos, end);
        if (depth > FIELDS_V1_MAX_DEPTH) {
          throw new WireFormatError(
            `fieldsV1 is nested ${depth} levels deep; kubectl cannot read or print more than ${FIELDS_V1_MAX_DEPTH} (Go's JSON limit of 10000 levels for the whole pod)`,
            start,
          );
        }
        const text = r.string(end);
        try {
          value = JSON.parse(text) as PodValue;
        } catch {
          throw new WireFormatError('fieldsV1 is not valid JSON', start);
        }
      } else this.unknown(tag >>> 3, tag & 7);
    }
    r.expectEnd(end);
    return value;
  }

  /**
   * One map entry (key = 1, value = 2) into the map `key` of `target`; values are strings or Quantities.
   * Read in place, no pair made: a pod's labels and annotations are a dozen entries.
   */
  mapEntry(target: PodObject, key: string, quantity: boolean): void {
    this.path.push(key);
    const r = this.r;
    const end = r.lengthDelimited();
    let k = '';
    let v = quantity ? '0' : '';
    while (r.pos < end) {
      const tag = r.uint32();
      if (tag === 10) k = r.string(r.lengthDelimited());
      else if (tag === 18) v = quantity ? this.quantity() : r.string(r.lengthDelimited());
      else this.unknown(tag >>> 3, tag & 7);
    }
    r.expectEnd(end);
    this.path.pop();
    setKey((target[key] as PodObject | undefined) ?? (target[key] = {}), k, v);
  }
}

