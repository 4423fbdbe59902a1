// The bytes printer against the tree printer (decode, then print the tree: a separate implementation of the
// same Go rules) on pods with every field of the schema: set, set to its zero value, and absent.
import { describe, expect, it } from 'vitest';
import { podSchema } from '../schema/pod-schema';
import { decodePod } from './decode';
import { DecodeContext } from './decode-context';
import { JsonBytesWriter } from './json-bytes-writer';
import { createBytesPrinter } from './kubectl-json-bytes';
import { anyTextFor, podBytesToKubectlJson, podBytesToNdjsonLine, podToKubectlJson, podToNdjsonLine } from './kubectl-json';
import { everyFieldPods } from './testdata/every-field-pods';
import { WireReader } from './wire-reader';

// Strings with what JSON escapes: HTML-safe characters, quotes, control characters, U+2028.
const pods = everyFieldPods('a<b>&"c\\\n\u2028é\u0001');

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
