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

export type MessageDecoder = (r: WireReader, end: number, target: PodObject, c: DecodeContext) => void;

export const fnName = (m: MessageSchema): string => `d_${m.fullName.replace(/\./g, '_')}`;

/** The value expression of one element of a field; `decoderOf` names the function that fills a message. */
function readExpression(field: FieldSchema, decoderOf: (m: MessageSchema) => string): string {
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
      return `sub(${decoderOf(msg)}, r, c)`;
  }
}

/**
 * The switch cases that read one field into the target `t`. `decoderOf` names the function that fills a
 * message of the field: the whole decoder, or a pruned one (decode-fields.ts) that reads only some of it.
 */
export function fieldCases(f: FieldSchema, decoderOf: (m: MessageSchema) => string = fnName): string {
  const tag = (f.number << 3) | f.wireType;
  const key = js(f.json);
  if (f.inline) return `case ${tag}: { const e = r.lengthDelimited(); ${decoderOf(f.message!)}(r, e, t, c); break; }`;
  if (f.map) return `case ${tag}: c.mapEntry(t, ${key}, ${f.message?.special === 'quantity'}); break;`;
  if (f.repeated && f.wireType === WIRE_VARINT) {
    // Go writes these lists unpacked; proto2 readers must accept the packed form as well.
    const packedTag = (f.number << 3) | WIRE_LEN;
    return `case ${tag}: { const l = t[${key}]; const v = ${readExpression(f, decoderOf)}; if (l === undefined) t[${key}] = [v]; else l.push(v); break; }
      case ${packedTag}: { const e = r.lengthDelimited(); let l = t[${key}]; if (l === undefined) t[${key}] = l = []; while (r.pos < e) l.push(${readExpression(f, decoderOf)}); r.expectEnd(e); break; }`;
  }
  if (f.repeated) {
    return `case ${tag}: { let l = t[${key}]; if (l === undefined) t[${key}] = l = []; c.path.push(${key}, l.length); l.push(${readExpression(f, decoderOf)}); c.path.pop(); c.path.pop(); break; }`;
  }
  // The object joins the pod before it is filled, so an error further in still finds the pod's name and uid.
  if (f.message && !f.message.special) return `case ${tag}: { c.path.push(${key}); const e = r.lengthDelimited(); const o = {}; t[${key}] = o; ${decoderOf(f.message)}(r, e, o, c); c.path.pop(); break; }`;
  return `case ${tag}: t[${key}] = ${readExpression(f, decoderOf)}; break;`;
}

/**
 * One message's decoder function: `cases` for the fields it reads, and for any other tag `otherCall`
 * (DecodeContext.other keeps unknown fields; DecodeContext.skipUnread passes over fields left unread).
 */
export function messageDecoder(name: string, cases: readonly string[], schemaIndex: number, otherCall: 'other' | 'skipUnread' = 'other'): string {
  return `function ${name}(r, end, t, c) {
  while (r.pos < end) {
    const start = r.pos;
    const tag = r.uint32();
    switch (tag) {
      ${cases.join('\n      ')}
      default: c.${otherCall}(schemas[${schemaIndex}], tag, start);
    }
  }
  r.expectEnd(end);
}`;
}

/** Reads a length-delimited message into a new object: the helper the generated expressions call. */
export const SUB_HELPER = `function sub(fn, r, c) { const e = r.lengthDelimited(); const o = {}; fn(r, e, o, c); return o; }`;

/** The whole decoders, compiled once: every message's by its function name, and the messages in the order `schemas[i]` names them. */
export interface WholeDecoders {
  byName: Record<string, MessageDecoder>;
  messages: MessageSchema[];
  pod: MessageDecoder;
}

let wholeDecoders: WholeDecoders | undefined;

export function compiledDecoders(): WholeDecoders {
  if (wholeDecoders) return wholeDecoders;
  const schema = podSchema();
  const messages = [...schema.messages.values()].filter((m) => !m.special);
  const source = [
    ...messages.map((m, i) => messageDecoder(fnName(m), m.fields.map((f) => fieldCases(f)), i)),
    SUB_HELPER,
    `return { ${messages.map(fnName).join(', ')} };`,
  ].join('\n\n');
  const byName = compileFunctions<Record<string, MessageDecoder>>(source, { schemas: messages });
  wholeDecoders = { byName, messages, pod: byName[fnName(schema.pod)]! };
  return wholeDecoders;
}

/**
 * Runs a compiled pod decoder over the bytes: a malformed pod is a PodDecodeError naming the pod (its
 * namespace/name as far as decoded, else `label`), its uid if read, the field path and the byte offset.
 */
export function runPodDecoder(decoder: MessageDecoder, bytes: Uint8Array, label: string): DecodedPod {
  const reader = new WireReader(bytes);
  const context = new DecodeContext(reader);
  const pod: PodObject = {};
  try {
    decoder(reader, bytes.length, pod, context);
  } catch (err) {
    if (err instanceof WireFormatError) {
      const uid = (pod.metadata as PodObject | undefined)?.uid;
      throw new PodDecodeError(podLabel(pod, label), err.offset, context.pathString(), err.message, label, typeof uid === 'string' && uid ? uid : undefined);
    }
    throw err;
  }
  return { pod, unknownFields: context.unknownFields };
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
  return runPodDecoder(compiledDecoders().pod, bytes, label);
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
