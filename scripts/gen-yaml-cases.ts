/**
 * Makes the kubectl YAML oracle cases in app/pod/testdata/yaml/: pods that fill every field of the pod schema
 * and carry odd strings (quotes, colons, hashes, leading spaces, numbers and YAML 1.1 words as strings, long
 * text with and without spaces, multi-line text, unicode, U+2028/U+2029, big integers), each run through kubectl:
 *
 *   kubectl patch --local -f POD.json --type=merge -p '{}' -o json   -> NAME.json  (the input)
 *   kubectl patch --local -f POD.json --type=merge -p '{}' -o yaml   -> NAME.yaml  (what must come out)
 *
 * Pods kubectl refuses to print as YAML get NAME.refused (kubectl's error) instead of NAME.yaml. The tests
 * read these files, so they run without kubectl. Run: node bin/run-ts.js scripts/gen-yaml-cases.ts
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { podToKubectlJson } from '../app/pod/kubectl-json';
import type { PodObject, PodTree, PodValue } from '../app/pod/pod-tree';
import { podSchema, type FieldSchema, type MessageSchema } from '../app/schema/pod-schema';

const OUT = resolve(import.meta.dirname, '..', 'app', 'pod', 'testdata', 'yaml');

/** Strings go-yaml treats specially, one way or another. */
export const ODD_STRINGS: string[] = [
  // YAML 1.1 booleans and nulls, in every spelling go-yaml knows, and near misses
  ...['y', 'Y', 'yes', 'Yes', 'YES', 'yEs', 'n', 'N', 'no', 'No', 'NO', 'nO', 'true', 'True', 'TRUE', 'tRUE', 'false', 'False', 'FALSE'],
  ...['on', 'On', 'ON', 'oN', 'off', 'Off', 'OFF', 'null', 'Null', 'NULL', 'nULL', '~', '', ' ', '  ', '<<', '=', 'yes please', 'nope'],
  // numbers as strings: ints in Go's bases, floats, underscores, base 60, out of range
  ...['0', '1', '-1', '+1', '007', '08', '0x1F', '0X1f', '0o17', '0b101', '-0b11', '0x', '1_000', '1__0', '_1', '1e3', '1E-3', '1.5', '1.', '.5', '-.5', '+.5', '.', '..5'],
  ...['1.2.3', '10.0.0.1', '1:30', '-1:30:00', '190:20:30.15', '1:60', '9223372036854775807', '9223372036854775808', '18446744073709551616', '123456789012345678901234567890'],
  ...['0xFFFFFFFFFFFFFFFFFFFF', '1e400', '.5e400', '-0', '+0', '.inf', '-.Inf', '+.INF', '.NaN', 'NaN', 'Infinity', '-Infinity', '1e', '0b', '0o8'],
  // timestamps go-yaml recognizes, and ones it does not
  ...['2024-01-01', '2024-1-1', '2024-13-01', '2024-02-29', '2023-02-29', '2024-04-31', '2024-01-01T10:00:00Z', '2024-01-01t10:00:00Z', '2024-01-01 10:00:00'],
  ...['2024-01-01  10:00:00', '2024-01-01T10:00:00.123456789Z', '2024-01-01T10:00:00,5Z', '2024-01-01T10:00:00+02:00', '2024-01-01T10:00:00+25:00', '2024-01-01T24:00:00Z'],
  ...['2024-01-01T10:00:00', '2024-01-01T1:2:3Z', '24-01-01', '20240-01-01', '2024-01-01x'],
  // indicators at the start, inside, at the end
  ...['-', '--', '---', '--- x', '---x', '...', '....', '... x', '?', '? x', '?x', ':', ': x', ':x', 'x:', 'x: y', 'x:y', 'http://a.b/c?d=e#f'],
  ...['#', '# x', 'x #y', 'x#y', 'x # y', '&a', '*a', '!a', '!!str', '|', '|-', '>', "'", '"', '%', '@', '`', ',', '[', ']', '{', '}', 'a,b', 'a[b]', '{a: b}', '[a, b]'],
  ...['-a', '- a', '-\ta', 'a -', 'a- b', 'a -b', 'it\'s', 'say "hi"', '\'quoted\'', '"dq"', 'back\\slash', 'a\\nb', 'C:\\path\\to'],
  // white space
  ...[' lead', 'trail ', ' both ', 'in  side', '\tlead tab', 'tab\tin', 'trail tab\t'],
  // multi-line
  ...['a\nb', 'a\nb\n', 'a\nb\n\n', '\n', '\n\n', '\na', ' a\nb', 'a\n b', 'a \nb', 'a\n\nb', 'a\r\nb', 'a\rb', 'line\ttab\nx', 'a\nb ', '# not a comment\n- not a list\n'],
  ...['#!/bin/sh\nset -e\necho "hello: world" # comment\nexit 0\n'],
  // unicode
  ...['é', 'naïve café', '日本語のテキスト', 'émoji 😀 here', '😀', 'a\u00a0b', '\u00a0', 'a\ufeffb', '\u200bzero-width', 'עברית', 'Ω≈ç√', 'a\u0301'],
  ...['\u0000', 'a\u0001b', '\u001b[31mred\u001b[0m', 'bell\u0007', 'a\u000bb', 'a\u000cb'],
];

const words = (n: number, w = 'word'): string => Array.from({ length: n }, (_, i) => `${w}${i}`).join(' ');

/** Long text: folding at column 80 in every quoting style, at several indentations. */
export const LONG_STRINGS: string[] = [
  words(40),
  'x'.repeat(150),
  `${'y'.repeat(90)} ${'z'.repeat(90)}`,
  `${words(12)}  ${words(12)}   ${words(12)}`,
  `${words(30)}: colon`,
  `key: ${words(30)}`,
  `${words(30)} #hash`,
  `"${words(30)}"`,
  `'${words(30)}'`,
  ` ${words(30)}`,
  `${words(30)} `,
  `${words(20)}\t${words(20)}`,
  `${words(20)}\u0001${words(20)}`,
  `${words(15)}\n${words(30)}\n`,
  `${words(15)}\n${words(30)} \n`,
  `${words(15)}\r\n${words(15)}`,
  `${'a '.repeat(60)}b`,
  `${'ab '.repeat(30)} ${'cd  '.repeat(20)}end`,
  `${words(25, 'été')}`,
  `${words(10, '日本語')} ${words(10, '日本語')}`,
  `${words(8)} ${'😀 '.repeat(30)}end`,
  `yes ${words(30)}`,
  `${'9'.repeat(100)}`,
  `--- ${words(30)}`,
  `- ${words(30)}`,
];

/**
 * Keys that sort oddly or need quoting, and keys too long to be simple keys (over 128 bytes). Not keys such as
 * a0b, a1 and a01 together: go-yaml's order is not total for them and kubectl's output varies from run to run.
 */
export const ODD_KEYS: string[] = [
  'a', 'A', 'b', 'B', '_a', '-a', '.a', '0', '1', '9', '10', 'a1', 'a2', 'a10', 'a10b', 'a9z', 'a10b2', 'a10b10', 'b20', 'b3',
  'x-1', 'x_1', 'x.1', 'x/1', 'x1', 'xA', 'xa', 'x~', 'é', 'z', 'Z', 'ß', '日本', '١٢', 'a١٢', 'a12',
  'yes', 'no', 'on', 'null', '~', '', ' ', 'a b', 'a: b', 'a:b', '#a', 'a #b', '- a', '? a', '1.5', '2024-01-01', '"q"', "'q'",
  'app.kubernetes.io/name', 'kubernetes.io/config.seen', `k:{"name":"${'n'.repeat(120)}"}`, `${'long-key-'.repeat(15)}end`, `${'é'.repeat(64)}`, `${'é'.repeat(65)}`,
  `${words(30)}`, 'multi\nline', 'tab\tkey',
];

type Gen = (f: FieldSchema, path: string) => PodValue;

/** A value for every field of the schema (depth-limited), strings drawn from `strings` in turn. */
function fillMessage(m: MessageSchema, depth: number, strings: () => string, path: string): PodObject {
  const o: PodObject = {};
  for (const { name, field } of m.members) {
    const p = `${path}.${name}`;
    const one: Gen = (f) => element(f, depth, strings, p);
    if (field.map) {
      const entries: PodObject = {};
      for (let i = 0; i < 2; i++) entries[`${name}-${i === 0 ? 'a' : strings() || 'k'}`] = one(field, p);
      o[name] = entries;
    } else if (field.repeated) {
      o[name] = [one(field, p), one(field, p)];
    } else {
      const v = one(field, p);
      if (v !== undefined) o[name] = v;
    }
  }
  return o;
}

let counter = 0;
function element(f: FieldSchema, depth: number, strings: () => string, path: string): PodValue {
  counter++;
  if (f.scalar === 'string') return strings();
  if (f.scalar === 'bool') return counter % 2 === 0;
  if (f.scalar === 'int32') return counter % 3 === 0 ? -counter : counter;
  if (f.scalar === 'int64') return counter % 4 === 0 ? 9007199254740993n + BigInt(counter) : counter % 4 === 1 ? -(2n ** 63n) : counter * 1000;
  if (f.scalar === 'bytes') return 'aGVsbG8gd29ybGQ=';
  const m = f.message!;
  switch (m.special) {
    case 'time':
      return counter % 5 === 0 ? null : '2024-05-06T07:08:09Z';
    case 'quantity':
      return ['100m', '1Gi', '1.5', '0', '2e3'][counter % 5]!;
    case 'intOrString':
      return counter % 2 === 0 ? 8080 : 'http';
    case 'fieldsV1':
      return { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, [`k:{"name":"${'c'.repeat(100)}","port":8080}`]: { '.': {} }, 'f:spec': {} };
  }
  if (depth > 7) return {};
  return fillMessage(m, depth + 1, strings, path);
}

function cycle(list: string[]): () => string {
  let i = 0;
  return () => list[i++ % list.length]!;
}

function basePod(name: string): PodTree {
  return {
    metadata: { name, namespace: 'default', uid: '0b6c6f5e-7d52-4a39-9b2e-2f5b2b7f2f11', creationTimestamp: '2024-05-06T07:08:09Z' },
    spec: { containers: [{ name: 'c', image: 'registry.example/app:1.0' }] },
    status: { phase: 'Running' },
  };
}

/** A pod whose annotations, labels, command and env carry `values` (keyed k000...), in maps and in lists. */
function stringsPod(name: string, values: string[]): PodTree {
  const pod = basePod(name);
  const annotations: Record<string, string> = {};
  values.forEach((v, i) => (annotations[`k${String(i).padStart(3, '0')}`] = v));
  pod.metadata = { ...(pod.metadata as PodObject), annotations };
  pod.spec = {
    containers: [
      {
        name: 'c',
        image: 'i',
        command: values,
        env: values.map((v, i) => ({ name: `E${i}`, value: v })),
      },
    ],
  };
  return pod;
}

function keysPod(name: string): PodTree {
  const pod = basePod(name);
  const labels: Record<string, string> = {};
  ODD_KEYS.forEach((k, i) => (labels[k] = ODD_STRINGS[i % ODD_STRINGS.length]!));
  pod.metadata = { ...(pod.metadata as PodObject), labels, annotations: Object.fromEntries(ODD_KEYS.map((k) => [k, words(30)])) };
  pod.spec = { containers: [{ name: 'c', image: 'i', resources: { limits: Object.fromEntries(ODD_KEYS.map((k) => [k, '1'])) } }] };
  return pod;
}

function bigIntPod(name: string): PodTree {
  const pod = basePod(name);
  pod.metadata = { ...(pod.metadata as PodObject), generation: 9223372036854775807n };
  pod.spec = { containers: [{ name: 'c', image: 'i' }], activeDeadlineSeconds: -9223372036854775808n, terminationGracePeriodSeconds: 9007199254740993n };
  pod.status = { phase: 'Running', observedGeneration: 9007199254740992n };
  return pod;
}

function emptyPod(name: string): PodTree {
  const pod = basePod(name);
  pod.metadata = { ...(pod.metadata as PodObject), labels: {}, annotations: {} };
  pod.spec = { containers: [{ name: 'c', image: 'i', args: [], env: [] }], volumes: [], nodeSelector: {} };
  return pod;
}

/**
 * U+2028 and U+2029, which go-yaml writes raw (inside quotes or literals, indented after them as after a line
 * break) and reads back as they were: in every quoting style, next to spaces and newlines, and where lines fold.
 */
export const LINE_SEPARATOR_STRINGS: string[] = [
  'a\u2028b', 'a\u2029b', '\u2028', '\u2029', '\u2028\u2029', '\u2028lead', '\u2029lead', 'trail\u2028', 'trail\u2029', '1\u2028 2', 'a \u2028b', ' a\u2028b',
  'a\u2028\u2029b', 'a\u2028\u2028b', 'a\n\u2028b', 'a\u2028\nb', 'a\nb\u2029', 'a\nb\u2029\n', '\u2028\n', '\n\u2029', 'a\u2029\n\nb\n', 'x: \u2028y', '#\u2028',
  '-\u2028a', 'tab\t\u2028', 'a\u2028\u0001', "it's\u2028", 'é\u2029日本', 'yes\u2028', '0\u2029',
  `${words(20)}\u2028${words(20)}`, `${words(15)}\n${words(10)}\u2029${words(10)}\n`, `"${words(12)}\u2028${words(12)}"`, `${words(12)}\u2029 ${words(12)}`,
];

/** Keys holding U+2028/U+2029: never simple keys (they count as line breaks), so go-yaml writes them after `? `. */
export const LINE_SEPARATOR_KEYS: string[] = ['k\u2028ey', '\u2029', 'a/b\u2029c', `${'long-key-'.repeat(5)}\u2028end`];

/** Strings kubectl refuses to print as YAML; their cases expect a refusal (kubectl-yaml.test.ts covers U+0085, which kubectl prints changed). */
export const REFUSED_STRINGS = ['a\u007fb', 'a\u0080b', 'a\u009fb', 'a\ufffeb', 'a\uffffb'];

function lineSeparatorsPod(name: string): PodTree {
  const pod = stringsPod(name, LINE_SEPARATOR_STRINGS);
  const labels = Object.fromEntries(LINE_SEPARATOR_KEYS.map((k, i) => [k, LINE_SEPARATOR_STRINGS[i]!]));
  pod.metadata = { ...(pod.metadata as PodObject), labels };
  return pod;
}

function cases(): [string, PodTree][] {
  const list: [string, PodTree][] = [];
  counter = 0;
  list.push(['every-field-plain', fillMessage(podSchema().pod, 0, cycle(['value', 'v1', 'some text', 'x']), '')]);
  counter = 0;
  list.push(['every-field-odd', fillMessage(podSchema().pod, 0, cycle(ODD_STRINGS), '')]);
  counter = 0;
  list.push(['every-field-long', fillMessage(podSchema().pod, 0, cycle(LONG_STRINGS), '')]);
  for (let i = 0; i < ODD_STRINGS.length; i += 40) list.push([`odd-strings-${String(i / 40).padStart(2, '0')}`, stringsPod(`odd-${i}`, ODD_STRINGS.slice(i, i + 40))]);
  list.push(['long-strings', stringsPod('long', LONG_STRINGS)]);
  list.push(['odd-keys', keysPod('keys')]);
  list.push(['big-ints', bigIntPod('big')]);
  list.push(['empty-collections', emptyPod('empty')]);
  list.push(['line-separators', lineSeparatorsPod('line-separators')]);
  REFUSED_STRINGS.forEach((s, i) => list.push([`refused-${i}`, stringsPod(`refused-${i}`, ['ok', s])]));
  return list;
}

function kubectl(file: string, output: 'json' | 'yaml'): { ok: boolean; out: string } {
  const r = spawnSync('kubectl', ['patch', '--local', '-f', file, '--type=merge', '-p', '{}', '-o', output], { encoding: 'utf8' });
  return { ok: r.status === 0, out: r.status === 0 ? r.stdout : r.stderr.trim() };
}

function main(): void {
  execFileSync('kubectl', ['version', '--client'], { stdio: 'inherit' });
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const tmp = mkdtempSync(join(tmpdir(), 'yaml-cases-'));
  try {
    for (const [name, pod] of cases()) {
      const input = join(tmp, `${name}.json`);
      writeFileSync(input, podToKubectlJson(pod, { showManagedFields: true }));
      const json = kubectl(input, 'json');
      if (!json.ok) throw new Error(`${name}: kubectl refused the JSON: ${json.out}`);
      writeFileSync(join(OUT, `${name}.json`), json.out);
      const yaml = kubectl(input, 'yaml');
      // A case is an oracle only when kubectl prints it the same way every time.
      for (let k = 0; k < 3; k++) if (kubectl(input, 'yaml').out !== yaml.out) throw new Error(`${name}: kubectl prints it differently from run to run`);
      writeFileSync(join(OUT, `${name}.${yaml.ok ? 'yaml' : 'refused'}`), yaml.ok ? yaml.out : `${yaml.out}\n`);
      console.log(`${name}: ${yaml.ok ? 'yaml' : `refused (${yaml.out})`}`);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  console.log(`${readdirSync(OUT).length} files in ${OUT}`);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) main();
