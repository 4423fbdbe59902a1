// The bytes printer against the tree printer (decode, then print the tree: a separate implementation of the
// same Go rules) on pods with every field of the schema: set, set to its zero value, and absent.
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { podSchema } from '../schema/pod-schema';
import { decodePod } from './decode';
import { DecodeContext } from './decode-context';
import { JsonBytesWriter } from './json-bytes-writer';
import { createBytesPrinter } from './kubectl-json-bytes';
import { anyTextFor, podToKubectlJson, podToNdjsonLine } from './kubectl-json';
import { everyFieldPods } from './testdata/every-field-pods';
import { WireReader } from './wire-reader';

// Strings with what JSON escapes: HTML-safe characters, quotes, control characters, U+2028.
const pods = everyFieldPods('a<b>&"c\\\n\u2028é\u0001');

/** The bytes printer alone, with no fallback to the tree (podBytesToKubectlJson falls back on a decode error). */
function printFast(bytes: Uint8Array, pretty: boolean, hideManagedFields = true): string {
  const w = new JsonBytesWriter(pretty);
  const r = new WireReader(bytes);
  const c = new DecodeContext(r);
  createBytesPrinter(pretty, anyTextFor)(w, r, bytes.length, 0, hideManagedFields, c);
  expect(c.unknownFields).toEqual([]);
  return new TextDecoder().decode(w.view());
}

describe('kubectl JSON from pod bytes, against the tree printer', () => {
  it.each(Object.entries(pods))('%s: the same text in both layouts', (_name, bytes) => {
    const tree = decodePod(bytes).pod;
    expect(`${printFast(bytes, true)}\n`).toBe(podToKubectlJson(tree));
    expect(printFast(bytes, false)).toBe(podToNdjsonLine(tree));
    expect(`${printFast(bytes, true, false)}\n`).toBe(podToKubectlJson(tree, { showManagedFields: true }));
    expect(printFast(bytes, false, false)).toBe(podToNdjsonLine(tree, { showManagedFields: true }));
  });

  it('keeps the last of two entries with one key, as Go and the tree decoder do', () => {
    const pod = protobuf.Writer.create();
    pod.uint32(10).fork();
    for (const [k, v] of [['b', '1'], ['a', '1'], ['b', '2'], ['a', '2'], ['c', '1']]) pod.uint32(90).fork().uint32(10).string(k!).uint32(18).string(v!).ldelim();
    pod.ldelim();
    const bytes = pod.finish();
    const json = printFast(bytes, true);
    expect(json).toContain('"labels": {\n            "a": "2",\n            "b": "2",\n            "c": "1"\n        }');
    expect(`${json}\n`).toBe(podToKubectlJson(decodePod(bytes).pod));
  });

  it('covers the whole schema: every member of every message is printed from the full pod', () => {
    const json = printFast(pods['every field set'], true);
    const keys = new Set([...json.matchAll(/"([A-Za-z0-9]+)": /g)].map((m) => m[1]));
    const missing = [...podSchema().messages.values()].flatMap((m) => (m.special ? [] : m.members.map((x) => x.name))).filter((name) => name !== 'managedFields' && !keys.has(name));
    expect(missing).toEqual([]);
    expect(json).toContain('"generation": 1152921504606846977');
  });
});
