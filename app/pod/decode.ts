/**
 * Pod bytes (Go's v1.Pod.Marshal()) -> a pod tree shaped like kubectl's JSON (see pod-tree.ts).
 * Schema-driven from the compiled pod schema; keeps presence, keeps every field the schema does not know,
 * and names the pod, the field path and the byte offset when the bytes are malformed.
 */
import { podSchema, WIRE_LEN, WIRE_VARINT, type FieldSchema, type MessageSchema } from '../schema/pod-schema';
import type { DecodedPod, PodObject, PodValue, UnknownField } from './pod-tree';
import { WireFormatError, WireReader } from './wire-reader';

export class PodDecodeError extends Error {
  constructor(
    /** What the pod is called: its namespace/name when that much decoded, else the caller's label. */
    readonly pod: string,
    readonly offset: number,
    readonly path: string,
    readonly reason: string,
  ) {
    super(`cannot decode pod ${pod}: ${reason} at byte offset ${offset}${path ? ` (in ${path})` : ''}`);
    this.name = 'PodDecodeError';
  }
}

/** Go's zero time: 0001-01-01T00:00:00Z, printed as null like an absent time. */
const GO_ZERO_TIME_SECONDS = -62135596800;

function timeToJson(seconds: number | bigint): string | null {
  if (seconds === GO_ZERO_TIME_SECONDS) return null;
  const iso = new Date(Number(seconds) * 1000).toISOString();
  return `${iso.slice(0, 19)}Z`;
}

/** Object keys from the wire may be anything; `__proto__` must become a key, not a prototype. */
function setKey(obj: PodObject, key: string, value: PodValue): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

class PodDecoder {
  readonly unknownFields: UnknownField[] = [];
  /** Path segments of the message being decoded, rendered only when an error or unknown field needs them. */
  private readonly path: (string | number)[] = [];

  constructor(private readonly r: WireReader) {}

  pathString(): string {
    let s = '';
    for (const seg of this.path) s += typeof seg === 'number' ? `[${seg}]` : s ? `.${seg}` : seg;
    return s;
  }

  message(schema: MessageSchema, end: number, target: PodObject): void {
    const r = this.r;
    while (r.pos < end) {
      const tagStart = r.pos;
      const tag = r.uint32();
      const number = tag >>> 3;
      const wireType = tag & 7;
      const field = schema.byNumber[number];
      if (field === undefined) {
        if (number === 0) throw new WireFormatError('field number 0 is invalid', tagStart);
        this.unknown(number, wireType);
        continue;
      }
      if (wireType !== field.wireType) {
        if (wireType === WIRE_LEN && field.repeated && field.wireType === WIRE_VARINT) {
          this.packed(field, target);
          continue;
        }
        throw new WireFormatError(`field ${field.json} (${number}) has wire type ${wireType}, expected ${field.wireType}`, tagStart);
      }
      if (field.map) this.mapEntry(field, target);
      else if (field.repeated) {
        const list = (target[field.json] as PodValue[] | undefined) ?? (target[field.json] = []);
        this.path.push(field.json, list.length);
        list.push(this.value(field));
        this.path.length -= 2;
      } else if (field.inline) {
        // Inlined embeds (Volume.volumeSource, Probe.handler, ...) land in the parent, as in JSON.
        const subEnd = r.lengthDelimited();
        this.message(field.message!, subEnd, target);
      } else {
        this.path.push(field.json);
        target[field.json] = this.value(field);
        this.path.length -= 1;
      }
    }
    if (r.pos !== end) throw new WireFormatError('a field runs past the end of its message', r.pos);
  }

  private value(field: FieldSchema): PodValue {
    const r = this.r;
    switch (field.scalar) {
      case 'string':
        return r.string(r.lengthDelimited());
      case 'int64':
        return r.int64();
      case 'int32':
        return r.int32();
      case 'bool':
        return r.bool();
      case undefined:
        return this.submessage(field.message!);
      default:
        throw new WireFormatError(`unsupported scalar ${field.scalar} in ${field.json}`, r.pos);
    }
  }

  private submessage(schema: MessageSchema): PodValue {
    const r = this.r;
    const end = r.lengthDelimited();
    switch (schema.special) {
      case undefined: {
        const obj: PodObject = {};
        this.message(schema, end, obj);
        return obj;
      }
      case 'time': {
        if (r.pos === end) return null;
        const t = this.specialFields(schema, end);
        return timeToJson((t.seconds as number | bigint | undefined) ?? 0);
      }
      case 'quantity': {
        const q = this.specialFields(schema, end);
        return (q.string as string | undefined) ?? '0';
      }
      case 'intOrString': {
        const v = this.specialFields(schema, end);
        return Number(v.type ?? 0) === 1 ? ((v.strVal as string | undefined) ?? '') : ((v.intVal as number | undefined) ?? 0);
      }
      case 'fieldsV1': {
        const start = r.pos;
        const raw = this.fieldsV1Raw(end);
        if (raw === undefined) return null;
        try {
          return JSON.parse(new TextDecoder().decode(raw)) as PodValue;
        } catch {
          throw new WireFormatError('fieldsV1 is not valid JSON', start);
        }
      }
    }
  }

  /** Decodes a special type's own scalar fields (Time, Quantity, IntOrString) by the schema, keeping unknowns. */
  private specialFields(schema: MessageSchema, end: number): PodObject {
    const obj: PodObject = {};
    this.message(schema, end, obj);
    return obj;
  }

  private fieldsV1Raw(end: number): Uint8Array | undefined {
    const r = this.r;
    let raw: Uint8Array | undefined;
    while (r.pos < end) {
      const tag = r.uint32();
      if (tag >>> 3 === 1 && (tag & 7) === WIRE_LEN) {
        const rawEnd = r.lengthDelimited();
        raw = r.buf.subarray(r.pos, rawEnd);
        r.pos = rawEnd;
      } else this.unknown(tag >>> 3, tag & 7);
    }
    return raw;
  }

  private mapEntry(field: FieldSchema, target: PodObject): void {
    const r = this.r;
    const end = r.lengthDelimited();
    let key = '';
    let value: PodValue = field.scalar === 'string' ? '' : field.message?.special === 'quantity' ? '0' : {};
    this.path.push(field.json);
    while (r.pos < end) {
      const tag = r.uint32();
      const number = tag >>> 3;
      const wireType = tag & 7;
      if (wireType !== WIRE_LEN || (number !== 1 && number !== 2)) {
        this.unknown(number, wireType);
        continue;
      }
      if (number === 1) key = r.string(r.lengthDelimited());
      else value = this.value(field);
    }
    this.path.length -= 1;
    const map = (target[field.json] as PodObject | undefined) ?? (target[field.json] = {});
    setKey(map, key, value);
  }

  private packed(field: FieldSchema, target: PodObject): void {
    const r = this.r;
    const end = r.lengthDelimited();
    const list = (target[field.json] as PodValue[] | undefined) ?? (target[field.json] = []);
    while (r.pos < end) list.push(this.value(field));
  }

  private unknown(fieldNumber: number, wireType: number): void {
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
}

function podLabel(pod: PodObject, fallback: string): string {
  const meta = pod.metadata as PodObject | undefined;
  const name = meta?.name;
  if (typeof name !== 'string' || name === '') return fallback;
  return typeof meta?.namespace === 'string' && meta.namespace ? `${meta.namespace}/${name}` : name;
}

/**
 * Decodes one pod. `label` names the pod in errors until its own name has been decoded
 * (for example the file name, or `pods[3]` of a list).
 */
export function decodePod(bytes: Uint8Array, label = 'pod'): DecodedPod {
  const schema = podSchema().pod;
  const reader = new WireReader(bytes);
  const decoder = new PodDecoder(reader);
  const pod: PodObject = {};
  try {
    decoder.message(schema, bytes.length, pod);
  } catch (err) {
    if (err instanceof WireFormatError) {
      throw new PodDecodeError(podLabel(pod, label), err.offset, decoder.pathString(), err.message);
    }
    throw err;
  }
  return { pod, unknownFields: decoder.unknownFields };
}

/** The outcome of one pod of a list: one bad pod never hides the others. */
export type DecodeOutcome = ({ ok: true } & DecodedPod) | { ok: false; error: PodDecodeError };

export function decodePods(list: Uint8Array[], labelOf: (index: number) => string = (i) => `pods[${i}]`): DecodeOutcome[] {
  return list.map((bytes, i) => {
    try {
      return { ok: true, ...decodePod(bytes, labelOf(i)) };
    } catch (err) {
      if (err instanceof PodDecodeError) return { ok: false, error: err };
      throw err;
    }
  });
}
