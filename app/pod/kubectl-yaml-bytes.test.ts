import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatePods } from '../sim/pod-generator';
import { hasSharedPods, loadSharedPods } from '../testing/shared-fixtures';
import { decodePod } from './decode';
import { DecodeContext } from './decode-context';
import { encodePod } from './encode';
import { GoYamlEmitter } from './go-yaml-emitter';
import { podToKubectlJson } from './kubectl-json';
import { kubectlJsonToYaml } from './kubectl-json-to-yaml';
import { createYamlBytesPrinter, YamlFastPathMiss } from './kubectl-yaml-bytes';
import { podBytesToKubectlYaml, podsToKubectlListYaml, streamPodBytesAsKubectlYaml } from './kubectl-yaml';
import { podTreesFromKubectlYaml } from './kubectl-yaml-reader';
import type { PodTree } from './pod-tree';
import { everyFieldPods } from './testdata/every-field-pods';
import { WireReader } from './wire-reader';

const print = createYamlBytesPrinter(new GoYamlEmitter());
/** The fast path alone: the pod's YAML document, or 'miss' where it hands the pod to the JSON path. */
function fast(bytes: Uint8Array, hideManagedFields = true): string {
  const r = new WireReader(bytes);
  try {
    return `${print(r, bytes.length, 0, hideManagedFields, new DecodeContext(r))}\n`;
  } catch (err) {
    if (err instanceof YamlFastPathMiss) return 'miss';
    throw err;
  }
}

// kubectl v1.32's YAML of generated pods (scripts/gen-yaml-cases.ts), read back into pods and encoded.
const casesDir = resolve(import.meta.dirname, 'testdata', 'yaml');
const cases = readdirSync(casesDir)
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => {
    const yaml = readFileSync(join(casesDir, f), 'utf8');
    return { name: f.slice(0, -5), yaml, bytes: encodePod(podTreesFromKubectlYaml(yaml)[0]!) };
  });

describe('pod bytes straight to kubectl YAML', () => {
  it("prints kubectl's bytes for the generated pods, leaving to the JSON path only what it cannot print", () => {
    const misses: string[] = [];
    for (const c of cases) {
      const text = fast(c.bytes);
      if (text === 'miss') misses.push(c.name);
      else expect(text, c.name).toBe(c.yaml);
      expect(podBytesToKubectlYaml(c.bytes).yaml, c.name).toBe(c.yaml);
    }
    // Only its `|` literals that end with U+2029 (see the next test) take the JSON path.
    expect(misses).toEqual(['line-separators']);
  });

  it('prints U+2028/U+2029 itself, leaving to the JSON path only a `|` literal that ends with one', () => {
    const withNote = (note: string): PodTree => {
      const tree = decodePod(cases.find((c) => c.name === 'big-ints')!.bytes).pod;
      return { ...tree, metadata: { ...(tree.metadata as object), annotations: { note, z: 'after' } } };
    };
    for (const note of ['a\u2028b', '\u2029', 'x: \u2028y', 'a\n\u2028b\n', `${'word '.repeat(20)}\u2028${'word '.repeat(20)}`]) {
      const tree = withNote(note);
      expect(fast(encodePod(tree)), JSON.stringify(note)).toBe(kubectlJsonToYaml(podToKubectlJson(tree)).yaml);
    }
    for (const note of ['a\nb\u2029', 'a\n\u2028']) {
      const tree = withNote(note);
      expect(fast(encodePod(tree)), JSON.stringify(note)).toBe('miss');
      expect(podBytesToKubectlYaml(encodePod(tree)).yaml).toContain(`${note.slice(-1)}    z: after\n`);
    }
  });

  it("prints the simulator's pods as their kubectl JSON converts", () => {
    const pods = generatePods(60, { seed: 9, nodeName: 'yaml-node', nowMs: Date.UTC(2026, 2, 3, 4, 5, 6) });
    for (const pod of pods) expect(fast(encodePod(pod))).toBe(kubectlJsonToYaml(podToKubectlJson(pod)).yaml);
  });

  it('prints pods under a List exactly as the JSON path does', () => {
    let streamed = '';
    streamPodBytesAsKubectlYaml(
      cases.map((c) => c.bytes),
      (t) => (streamed += t),
    );
    expect(streamed).toBe(podsToKubectlListYaml(cases.map((c) => podTreesFromKubectlYaml(c.yaml)[0]!)).yaml);
  });

  it('leaves a pod with strings kubectl refuses to the JSON path, which names them', () => {
    const refused = readdirSync(casesDir).filter((f) => f.endsWith('.refused'));
    expect(refused.length).toBeGreaterThan(0);
    for (const f of refused) {
      const json = readFileSync(join(casesDir, f.replace(/\.refused$/, '.json')), 'utf8');
      const bytes = encodePod(JSON.parse(json) as PodTree);
      expect(fast(bytes), f).toBe('miss');
      const printed = podBytesToKubectlYaml(bytes);
      expect(printed.yaml, f).toBe(kubectlJsonToYaml(json).yaml);
      expect(printed.problems[0]?.path, f).toBe('metadata.annotations.k001');
    }
  });

  it.each(Object.entries(everyFieldPods('a: b #c')))("%s: prints what the pod's kubectl JSON converts to", (_name, bytes) => {
    const tree = decodePod(bytes).pod;
    for (const showManagedFields of [false, true]) {
      const text = fast(bytes, !showManagedFields);
      expect(text).not.toBe('miss');
      expect(text).toBe(kubectlJsonToYaml(podToKubectlJson(tree, { showManagedFields })).yaml);
    }
  });

  it('prints a pod with a field unknown to this version and reports it; names what is wrong with a pod cut short', () => {
    const bytes = encodePod(generatePods(1, { seed: 4, nodeName: 'n', nowMs: Date.UTC(2026, 2, 3) })[0]!);
    const newer = new Uint8Array([...bytes, 0x9a, 0x06, 0x03, 0x61, 0x62, 0x63]);
    const printed = podBytesToKubectlYaml(newer);
    expect(printed.yaml).toBe(podBytesToKubectlYaml(bytes).yaml);
    expect(printed.unknownFields.map((f) => f.fieldNumber)).toEqual([99]);
    expect(() => podBytesToKubectlYaml(bytes.subarray(0, 40), {}, 'pods[3]')).toThrow(/pods\[3\].*offset/s);
  });

  it.skipIf(!hasSharedPods)("prints kubectl's YAML for every shared real pod, with and without managedFields", () => {
    for (const f of loadSharedPods()) {
      expect(fast(f.pb), f.name).toBe(kubectlJsonToYaml(f.jsonDefault).yaml);
      expect(podBytesToKubectlYaml(f.pb, { showManagedFields: true }).yaml, f.name).toBe(kubectlJsonToYaml(f.jsonWithManagedFields).yaml);
    }
  });
});
