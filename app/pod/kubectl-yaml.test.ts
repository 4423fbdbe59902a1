import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasSharedPods, loadSharedPods, sharedPodsDir } from '../testing/shared-fixtures';
import { compareYamlKeys, formatGoFloat } from './go-yaml-rules';
import { decodePod } from './decode';
import { podToKubectlJson, valueToKubectlJson } from './kubectl-json';
import {
  kubectlJsonToYaml,
  podBytesToKubectlYaml,
  podsToKubectlListYaml,
  podToKubectlYaml,
  streamPodBytesAsKubectlYaml,
  watchEventToKubectlYaml,
  yamlProblemsWarning,
} from './kubectl-yaml';
import { KubectlYamlError, podTreesFromKubectlYaml, readKubectlYaml } from './kubectl-yaml-reader';
import { FIELDS_V1_MAX_DEPTH } from './decode-context';
import { podToNdjsonLine } from './kubectl-json';
import { webPodBytes, withDeepManagedFields } from './testdata/handmade-pods';

// What kubectl v1.32 printed for generated pods (scripts/gen-yaml-cases.ts): NAME.json in, NAME.yaml out.
const casesDir = resolve(import.meta.dirname, 'testdata', 'yaml');
const files = readdirSync(casesDir);
const yamlCases = files.filter((f) => f.endsWith('.yaml')).map((f) => f.slice(0, -5));
const refusedCases = files.filter((f) => f.endsWith('.refused')).map((f) => f.slice(0, -8));
const read = (name: string) => readFileSync(join(casesDir, name), 'utf8');

const hasKubectl = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;

function kubectlYaml(json: string, showManagedFields: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'kubectl-yaml-'));
  try {
    writeFileSync(join(dir, 'pod.json'), json);
    const r = spawnSync('kubectl', ['patch', '--local', '-f', join(dir, 'pod.json'), '--type=merge', '-p', '{}', '-o', 'yaml', `--show-managed-fields=${showManagedFields}`], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(r.stderr);
    return r.stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('kubectl YAML of generated pods (kubectl v1.32 as oracle)', () => {
  it('has the generated cases', () => {
    expect(yamlCases.length).toBeGreaterThanOrEqual(12);
    expect(refusedCases.length).toBeGreaterThanOrEqual(5);
  });

  for (const name of yamlCases) {
    it(`${name}: prints kubectl's bytes, and reads back to kubectl's JSON bytes`, () => {
      const json = read(`${name}.json`);
      const printed = kubectlJsonToYaml(json);
      expect(printed.problems).toEqual([]);
      expect(printed.yaml).toBe(read(`${name}.yaml`));
      const docs = readKubectlYaml(printed.yaml);
      expect(docs).toHaveLength(1);
      expect(valueToKubectlJson(docs[0]!)).toBe(json);
    });
  }

  for (const name of refusedCases) {
    it(`${name}: kubectl refuses it; prints valid YAML that reads back to the same JSON, and says so`, () => {
      expect(read(`${name}.refused`)).toContain('control characters are not allowed');
      const json = read(`${name}.json`);
      const printed = kubectlJsonToYaml(json);
      expect(printed.problems.map((p) => p.kind)).toContain('refused');
      expect(printed.problems[0]!.path).toMatch(/^metadata\.annotations\.k001$/);
      expect(valueToKubectlJson(readKubectlYaml(printed.yaml)[0]!)).toBe(json);
      expect(yamlProblemsWarning('pod default/x', printed.problems)).toMatch(/kubectl would refuse to print pod default\/x as YAML .*metadata\.annotations\.k001 \(U\+/);
    });
  }
});

describe('kubectl YAML, rules kubectl has no say in', () => {
  it('keeps U+0085 escaped (kubectl reads it as a space) and warns; U+2028/U+2029 go out as kubectl writes them', () => {
    const printed = kubectlJsonToYaml('{"a":"x\u0085y","b":["1\u2028 2","3\\n\u2029","p\u2028q"]}');
    expect(printed.yaml).toBe('a: "x\\Ny"\nb:\n- "1\\L 2"\n- |+\n  3\n\u2029- \'p\u2028  q\'\n');
    expect(printed.problems.map((p) => [p.path, p.kind, p.codePoint])).toEqual([['a', 'altered', 0x85]]);
    expect(readKubectlYaml(printed.yaml)).toEqual([{ a: 'x\u0085y', b: ['1\u2028 2', '3\n\u2029', 'p\u2028q'] }]);
    expect(yamlProblemsWarning('pod p', printed.problems)).toBe(
      'nodescope: kubectl would print pod p with values that do not read back the same (U+0085 reads back as a space): a (U+0085); printed here as valid YAML that reads back to the same JSON',
    );
  });

  it('prints JSON numbers as go-yaml does after reading them: int64, uint64, else float64 in Go\'s g format', () => {
    expect(kubectlJsonToYaml('[1.0, 1e3, 1e6, 1.5e-7, 0.0001, 123456.5, 1234567.5, -0, 18446744073709551615, 18446744073709551616, 1e400]').yaml).toBe(
      '- 1\n- 1000\n- 1e+06\n- 1.5e-07\n- 0.0001\n- 123456.5\n- 1.2345675e+06\n- 0\n- 18446744073709551615\n- 1.8446744073709552e+19\n- 1e400\n',
    );
    expect(formatGoFloat(1e21)).toBe('1e+21');
    expect(formatGoFloat(-2.5)).toBe('-2.5');
  });

  it("sorts keys in go-yaml's order: numbers by value, non-letters before letters", () => {
    expect(['b', 'a10', 'a9', 'A', '_x', 'a-1', 'a'].sort(compareYamlKeys)).toEqual(['_x', 'A', 'a', 'a-1', 'a9', 'a10', 'b']);
  });

  it('prints a top-level list and empty collections', () => {
    expect(kubectlJsonToYaml('{"a":[],"b":{},"c":[[1,[]],{}]}').yaml).toBe('a: []\nb: {}\nc:\n- - 1\n  - []\n- {}\n');
  });

  it('names what is wrong with text that is not JSON or not kubectl YAML', () => {
    expect(() => kubectlJsonToYaml('{"a":')).toThrow(/not valid JSON/);
    expect(() => readKubectlYaml('a: [\n')).toThrow(KubectlYamlError);
    expect(() => podTreesFromKubectlYaml('apiVersion: v1\nkind: Service\n')).toThrow(/document 1 is a Service, not a Pod/);
  });
});

describe('kubectl YAML of pods', () => {
  it('prints a pod tree and pod bytes alike, kubectl List and watch events too', () => {
    const bytes = webPodBytes();
    const pod = decodePod(bytes).pod;
    const one = podToKubectlYaml(pod);
    expect(one.yaml.startsWith('apiVersion: v1\nkind: Pod\nmetadata:\n')).toBe(true);
    expect(podBytesToKubectlYaml(bytes).yaml).toBe(one.yaml);
    expect(one.yaml).toContain('  generation: 1152921504606846977\n');

    const list = podsToKubectlListYaml([pod, pod]).yaml;
    const listJson = `{"apiVersion":"v1","items":[${podToKubectlJson(pod)},${podToKubectlJson(pod)}],"kind":"List","metadata":{"resourceVersion":""}}`;
    expect(list).toBe(kubectlJsonToYaml(listJson).yaml);
    expect(podsToKubectlListYaml([]).yaml).toBe('apiVersion: v1\nitems: []\nkind: List\nmetadata:\n  resourceVersion: ""\n');
    let streamed = '';
    const result = streamPodBytesAsKubectlYaml([bytes, bytes.subarray(0, 20), bytes], (t) => (streamed += t));
    expect(streamed).toBe(list);
    expect(result.errors.map((e) => e.pod)).toEqual(['pods[1]']);

    const event = watchEventToKubectlYaml('ADDED', podToKubectlJson(pod), true).yaml;
    expect(event).toBe(`---\nobject:\n${one.yaml.replace(/^(?=.)/gm, '  ')}type: ADDED\n`);
    expect(podTreesFromKubectlYaml(`${list}---\n${event.slice(4)}`)).toHaveLength(3);
  });

  it('reads a pod back into the tree it was printed from, int64 beyond 2^53 exact', () => {
    const pod = decodePod(webPodBytes()).pod;
    const [tree] = podTreesFromKubectlYaml(podToKubectlYaml(pod).yaml);
    expect(podToKubectlJson(tree!)).toBe(podToKubectlJson(pod));
    expect((tree!.metadata as { generation: bigint }).generation).toBe(1152921504606846977n);
  });
});

describe('kubectl YAML of managedFields nested deep', () => {
  // kubectl v1.32's YAML of kubectl-managed-fields-140-deep.json (the web pod with withDeepManagedFields(140)).
  const kubectl140 = readFileSync(resolve(import.meta.dirname, 'testdata', 'kubectl-managed-fields-140-deep.yaml'), 'utf8');
  /** The fieldsV1 of withDeepManagedFields(depth) as go-yaml writes it under managedFields[0]: a key per level. */
  const fieldsV1Block = (depth: number): string => {
    let text = '';
    for (let level = 0; level < depth - 2; level++) text += `${' '.repeat(6 + 2 * level)}f:a:\n`;
    return `${text}${' '.repeat(6 + 2 * (depth - 2))}f:a: {}\n`;
  };
  /** Where two long texts first differ (a failed toBe would print 100 MB). */
  const firstDifference = (a: string, b: string): number | undefined => {
    for (let i = 0; i < Math.max(a.length, b.length); i += 4096) if (a.slice(i, i + 4096) !== b.slice(i, i + 4096)) return i;
    return undefined;
  };

  it('prints 140 levels as kubectl does, from the bytes and through the JSON', () => {
    const bytes = webPodBytes({ metaExtra: withDeepManagedFields(140) });
    expect(podBytesToKubectlYaml(bytes, { showManagedFields: true }).yaml).toBe(kubectl140);
    expect(podToKubectlYaml(decodePod(bytes).pod, { showManagedFields: true }).yaml).toBe(kubectl140);
    expect(kubectl140).toContain(`    fieldsV1:\n${fieldsV1Block(140)}    manager: m\n`);
  });

  it('prints the deepest fieldsV1 kubectl prints (9,996 levels) without running out of stack, as kubectl does at 140 levels', () => {
    // kubectl's own YAML at 9,996 levels is 100 MB (checked equal by hand); its 140 levels, made as deep, stand for it.
    const expected = kubectl140.replace(fieldsV1Block(140), fieldsV1Block(FIELDS_V1_MAX_DEPTH));
    const bytes = webPodBytes({ metaExtra: withDeepManagedFields(FIELDS_V1_MAX_DEPTH) });
    const printed = podBytesToKubectlYaml(bytes, { showManagedFields: true });
    expect(printed.problems).toEqual([]);
    expect(firstDifference(printed.yaml, expected)).toBeUndefined();
    // The JSON path: the tree's JSON converted, as `watch -o yaml` prints it.
    expect(firstDifference(kubectlJsonToYaml(podToNdjsonLine(decodePod(bytes).pod, { showManagedFields: true })).yaml, expected)).toBeUndefined();
  });

  it('says YAML nested deeper than its reader follows is too deep, and how to leave managedFields out', () => {
    const yaml = podBytesToKubectlYaml(webPodBytes({ metaExtra: withDeepManagedFields(2000) }), { showManagedFields: true }).yaml;
    expect(() => podTreesFromKubectlYaml(yaml)).toThrow(/nests deeper than this reader can follow .*export the pods without --show-managed-fields/);
  });
});

if (!hasSharedPods) console.warn(`kubectl YAML: shared fixtures skipped, none at ${sharedPodsDir}`);
if (hasSharedPods && !hasKubectl) console.warn('kubectl YAML: shared fixtures checked for read-back only; kubectl is not installed to compare bytes');

describe.skipIf(!hasSharedPods)('kubectl YAML of the shared real pods', () => {
  for (const f of loadSharedPods()) {
    it(`${f.name}: YAML reads back to kubectl's JSON bytes${hasKubectl ? ", and is kubectl's YAML byte for byte" : ''}`, () => {
      const { pod } = decodePod(f.pb, f.name);
      for (const [json, showManagedFields] of [[f.jsonDefault, false], [f.jsonWithManagedFields, true]] as const) {
        const printed = podToKubectlYaml(pod, { showManagedFields });
        expect(printed.problems).toEqual([]);
        expect(valueToKubectlJson(readKubectlYaml(printed.yaml)[0]!)).toBe(json);
        if (hasKubectl) expect(printed.yaml).toBe(kubectlYaml(json, showManagedFields));
      }
    });
  }
});
