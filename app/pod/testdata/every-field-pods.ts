/**
 * Pods with every field of the schema: set, set to its zero value, absent from every message (each message
 * there, nested ones too), and absent altogether. Written field by field with protobufjs's Writer as the
 * schema says, for checking the bytes printers against the tree printer.
 */
import protobuf from 'protobufjs';
import { podSchema, WIRE_LEN, WIRE_VARINT, type FieldSchema, type MessageSchema } from '../../schema/pod-schema';

type W = protobuf.Writer;
const tag = (w: W, f: FieldSchema, wire = f.wireType): W => w.uint32((f.number << 3) | wire);

/** One element of `f`: a value, or its zero (an empty string, 0, false, an empty message). */
function element(w: W, f: FieldSchema, zero: boolean | null, i: number, depth: number, text: string): void {
  switch (f.scalar) {
    case 'string':
      return void w.string(zero ? '' : `${text}${i}`);
    case 'int64':
      return void w.int64(zero ? 0 : i === 0 ? '1152921504606846977' : -5);
    case 'int32':
      return void w.int32(zero ? 0 : i === 0 ? 7 : -3);
    case 'bool':
      return void w.bool(!zero);
    case 'bytes':
      throw new Error(`a bytes field (${f.json}): the printers do not handle those`);
  }
  w.fork();
  const m = f.message!;
  // A special type's zero is its empty message; any other message has its fields, zero or not.
  if (!m.special) {
    // The schema is not recursive, but keep an accident bounded.
    if (depth < 20) message(w, m, zero, depth + 1, text);
  } else if (!zero) {
    if (m.special === 'time') w.uint32(8).int64(1782468739 + i);
    else if (m.special === 'quantity') w.uint32(10).string(i === 0 ? '100m' : '2Gi');
    else if (m.special === 'intOrString') {
      if (i === 0) w.uint32(8).int64(0).uint32(16).int32(8080);
      else w.uint32(8).int64(1).uint32(26).string('http');
    } else w.uint32(10).bytes(Buffer.from('{"f:b":{},"f:a":{"k:{\\"x\\":1}":{}}}'));
  }
  w.ldelim();
}

/** `zero`: every value zero; null: no values at all, only the messages. */
function message(w: W, m: MessageSchema, zero: boolean | null, depth: number, text: string): void {
  for (const f of m.fields) {
    if (zero === null) {
      if (f.message && !f.message.special && !f.map) element(tag(w, f), f, null, 0, depth, text);
      continue;
    }
    if (f.map) {
      // Two entries, keys in the reverse of Go's order; the zero variant's value is absent.
      for (const key of ['k2', 'k1']) {
        tag(w, f, WIRE_LEN).fork().uint32(10).string(key);
        if (!zero) {
          w.uint32(18);
          if (f.message) element(w, f, false, 0, depth, text);
          else w.string(`${text}${key}`);
        }
        w.ldelim();
      }
    } else if (f.repeated && f.wireType === WIRE_VARINT) {
      // One element as Go writes it, then a packed run, which the wire format allows as well.
      element(tag(w, f), f, zero, 0, depth, text);
      tag(w, f, WIRE_LEN).fork();
      element(w, f, zero, 1, depth, text);
      w.ldelim();
    } else {
      for (let i = 0; i < (f.repeated ? 2 : 1); i++) element(tag(w, f), f, zero, i, depth, text);
    }
  }
}

function podBytes(zero: boolean | null, text: string): Uint8Array {
  const w = protobuf.Writer.create();
  message(w, podSchema().pod, zero, 0, text);
  return w.finish();
}

/** The four pods, by name; `text` starts every string set. */
export function everyFieldPods(text: string): Record<'every field set' | 'every field zero' | 'every value absent' | 'every field absent', Uint8Array> {
  return {
    'every field set': podBytes(false, text),
    'every field zero': podBytes(true, text),
    'every value absent': podBytes(null, text),
    'every field absent': new Uint8Array(0),
  };
}
