// The bytes printer against the tree printer (decode, then print the tree: a separate implementation of the
// same Go rules) on pods with every field of the schema: set, set to its zero value, and absent.
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { podSchema, WIRE_LEN, WIRE_VARINT, type FieldSchema, type MessageSchema } from '../schema/pod-schema';
import { decodePod } from './decode';
import { DecodeContext } from './decode-context';
import { JsonBytesWriter } from './json-bytes-writer';
import { createBytesPrinter } from './kubectl-json-bytes';
import { anyTextFor, podBytesToKubectlJson, podBytesToNdjsonLine, podToKubectlJson, podToNdjsonLine } from './kubectl-json';
import { WireReader } from './wire-reader';

type W = protobuf.Writer;
const tag = (w: W, f: FieldSchema, wire = f.wireType): W => w.uint32((f.number << 3) | wire);
const TEXT = 'a<b>&"c\\\n\u2028é\u0001';

/** One element of `f`: a value, or its zero (an empty string, 0, false, an empty message). */
function element(w: W, f: FieldSchema, zero: boolean, i: number, depth: number): void {
  switch (f.scalar) {
    case 'string':
      return void w.string(zero ? '' : `${TEXT}${i}`);
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
    if (depth < 20) message(w, m, zero, depth + 1);
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

function message(w: W, m: MessageSchema, zero: boolean, depth: number): void {
  for (const f of m.fields) {
    if (f.map) {
      // Two entries, keys in the reverse of Go's order; the zero variant's value is absent.
      for (const key of ['k2', 'k1']) {
        tag(w, f, WIRE_LEN).fork().uint32(10).string(key);
        if (!zero) {
          w.uint32(18);
          if (f.message) element(w, f, false, 0, depth);
          else w.string(`${TEXT}${key}`);
        }
        w.ldelim();
      }
    } else if (f.repeated && f.wireType === WIRE_VARINT) {
      // One element as Go writes it, then a packed run, which the wire format allows as well.
      element(tag(w, f), f, zero, 0, depth);
      tag(w, f, WIRE_LEN).fork();
      element(w, f, zero, 1, depth);
      w.ldelim();
    } else {
      for (let i = 0; i < (f.repeated ? 2 : 1); i++) element(tag(w, f), f, zero, i, depth);
    }
  }
}

const podBytes = (zero: boolean): Uint8Array => {
  const w = protobuf.Writer.create();
  message(w, podSchema().pod, zero, 0);
  return w.finish();
};

const pods = { 'every field set': podBytes(false), 'every field zero': podBytes(true), 'every field absent': new Uint8Array(0) };

/** The bytes printer alone, with no fallback to the tree (podBytesToKubectlJson falls back on a decode error). */
function printFast(bytes: Uint8Array, pretty: boolean): string {
  const w = new JsonBytesWriter(pretty);
  const r = new WireReader(bytes);
  const c = new DecodeContext(r);
  createBytesPrinter(pretty, anyTextFor)(w, r, bytes.length, 0, true, c);
  expect(c.unknownFields).toEqual([]);
  return new TextDecoder().decode(w.view());
}

describe('kubectl JSON from pod bytes, against the tree printer', () => {
  it.each(Object.entries(pods))('%s: the same text in both layouts', (_name, bytes) => {
    const tree = decodePod(bytes).pod;
    expect(`${printFast(bytes, true)}\n`).toBe(podToKubectlJson(tree));
    expect(printFast(bytes, false)).toBe(podToNdjsonLine(tree));
    // Shown managed fields go through the FieldsV1 printer the app uses.
    expect(podBytesToKubectlJson(bytes, { showManagedFields: true }).json).toBe(podToKubectlJson(tree, { showManagedFields: true }));
    expect(podBytesToNdjsonLine(bytes, { showManagedFields: true }).json).toBe(podToNdjsonLine(tree, { showManagedFields: true }));
  });

  it('covers the whole schema: every member of every message is printed from the full pod', () => {
    const json = printFast(pods['every field set'], true);
    const keys = new Set([...json.matchAll(/"([A-Za-z0-9]+)": /g)].map((m) => m[1]));
    const missing = [...podSchema().messages.values()].flatMap((m) => (m.special ? [] : m.members.map((x) => x.name))).filter((name) => name !== 'managedFields' && !keys.has(name));
    expect(missing).toEqual([]);
    expect(json).toContain('"generation": 1152921504606846977');
  });
});
