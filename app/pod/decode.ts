/**
 * Pod bytes (Go's v1.Pod.Marshal()) -> a pod tree shaped like kubectl's JSON (see pod-tree.ts).
 * One decoder function per message is generated from the compiled pod schema; they keep presence, keep
 * every field the schema does not know, and name the pod, the field path and the byte offset when the
 * bytes are malformed.
 */
import { compileFunctions, js } from '../schema/compile-functions';
import { podSchema, WIRE_LEN, WIRE_VARINT, type FieldSchema, type MessageSchema } from '../schema/pod-schema';
import { DecodeContext } from './decode-context';
import type { DecodedPod, PodObject } from './pod-tree';
import { WireFormatError, WireReader } from './wire-reader';
import { NodescopeError } from '../util/nodescope-error';

export class PodDecodeError extends NodescopeError<'POD_DECODE'> {
  readonly exitClass = 'data';
  constructor(
    /** What the pod is called: its namespace/name when that much decoded, else the caller's label. */
    readonly pod: string,
    /** Where in the bytes decoding stopped; undefined for a pod that came as JSON (the REST API's /pods). */
    readonly offset: number | undefined,
    readonly path: string,
    readonly reason: string,
    /** Where the caller found it (`pods[3]`, a file name), named too when the pod's own name is known. */
    readonly label: string = pod,
    /** metadata.uid, when it decoded before the error. */
    readonly uid?: string,
  ) {
    const where = [label !== pod ? label : '', uid ? `uid ${uid}` : ''].filter(Boolean).join(', ');
    super('POD_DECODE', `cannot decode pod ${pod}${where ? ` (${where})` : ''}: ${reason}${offset === undefined ? '' : ` at byte offset ${offset}`}${path ? ` (in ${path})` : ''}`, undefined);
    this.name = 'PodDecodeError';
  }
}

type MessageDecoder = (r: WireReader, end: number, target: PodObject, c: DecodeContext) => void;

const fnName = (m: MessageSchema): string => `d_${m.fullName.replace(/\./g, '_')}`;

/** The value expression of one element of a field. */
function readExpression(field: FieldSchema): string {
  switch (field.scalar) {
    case 'string':
      return 'r.string(r.lengthDelimited())';
    case 'int64':
      return 'r.int64()';
    case 'int32':
      return 'r.int32()';
    case 'bool':
      return 'r.bool()';
    case undefined:
      break;
    default:
      throw new Error(`schema: no decoder for ${field.scalar}`);
  }
  const msg = field.message!;
  switch (msg.special) {
    case 'time':
      return 'c.time()';
    case 'quantity':
      return 'c.quantity()';
    case 'intOrString':
      return 'c.intOrString()';
    case 'fieldsV1':
      return 'c.fieldsV1()';
    default:
      return `sub(${fnName(msg)}, r, c)`;
  }
}

function generateDecoder(m: MessageSchema, index: number): string {
  const cases = m.fields.map((f) => {
    const tag = (f.number << 3) | f.wireType;
    const key = js(f.json);
    if (f.inline) return `case ${tag}: { const e = r.lengthDelimited(); ${fnName(f.message!)}(r, e, t, c); break; }`;
    if (f.map) return `case ${tag}: c.mapEntry(t, ${key}, ${f.message?.special === 'quantity'}); break;`;
    if (f.repeated && f.wireType === WIRE_VARINT) {
      // Go writes these lists unpacked; proto2 readers must accept the packed form as well.
      const packedTag = (f.number << 3) | WIRE_LEN;
      return `case ${tag}: { const l = t[${key}]; const v = ${readExpression(f)}; if (l === undefined) t[${key}] = [v]; else l.push(v); break; }
      case ${packedTag}: { const e = r.lengthDelimited(); let l = t[${key}]; if (l === undefined) t[${key}] = l = []; while (r.pos < e) l.push(${readExpression(f)}); r.expectEnd(e); break; }`;
    }
    if (f.repeated) {
      return `case ${tag}: { let l = t[${key}]; if (l === undefined) t[${key}] = l = []; c.path.push(${key}, l.length); l.push(${readExpression(f)}); c.path.pop(); c.path.pop(); break; }`;
    }
    // The object joins the pod before it is filled, so an error further in still finds the pod's name and uid.
    if (f.message && !f.message.special) return `case ${tag}: { c.path.push(${key}); const e = r.lengthDelimited(); const o = {}; t[${key}] = o; ${fnName(f.message)}(r, e, o, c); c.path.pop(); break; }`;
    return `case ${tag}: t[${key}] = ${readExpression(f)}; break;`;
  });
  return `function ${fnName(m)}(r, end, t, c) {
  while (r.pos < end) {
    const start = r.pos;
    const tag = r.uint32();
    switch (tag) {
      ${cases.join('\n      ')}
      default: c.other(schemas[${index}], tag, start);
    }
  }
  r.expectEnd(end);
}`;
}

let podDecoder: MessageDecoder | undefined;

function compileDecoders(): MessageDecoder {
  const schema = podSchema();
  const messages = [...schema.messages.values()].filter((m) => !m.special);
  const source = [
    ...messages.map((m, i) => generateDecoder(m, i)),
    `function sub(fn, r, c) { const e = r.lengthDelimited(); const o = {}; fn(r, e, o, c); return o; }`,
    `return ${fnName(schema.pod)};`,
  ].join('\n\n');
  return compileFunctions<MessageDecoder>(source, { schemas: messages });
}

/** The pod's namespace/name as far as it is known, else `fallback`. */
export function podLabel(pod: PodObject, fallback: string): string {
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
  podDecoder ??= compileDecoders();
  const reader = new WireReader(bytes);
  const context = new DecodeContext(reader);
  const pod: PodObject = {};
  try {
    podDecoder(reader, bytes.length, pod, context);
  } catch (err) {
    if (err instanceof WireFormatError) {
      const uid = (pod.metadata as PodObject | undefined)?.uid;
      throw new PodDecodeError(podLabel(pod, label), err.offset, context.pathString(), err.message, label, typeof uid === 'string' && uid ? uid : undefined);
    }
    throw err;
  }
  return { pod, unknownFields: context.unknownFields };
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
