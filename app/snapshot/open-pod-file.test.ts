import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeListPodsResponse } from '../kubelet/testing/pods-api-writers';
import { decodePod } from '../pod/decode';
import { podBytesListToKubectl, podToKubectlJson, streamPodsAsKubectl } from '../pod/kubectl-json';
import { podToKubectlYaml, streamPodsAsKubectlYaml } from '../pod/kubectl-yaml';
import type { PodObject, PodTree } from '../pod/pod-tree';
import { BIG_GENERATION, webPodBytes, webPodJson } from '../pod/testdata/handmade-pods';
import { hasSharedPods, loadSharedPods, sharedPodsDir } from '../testing/shared-fixtures';
import { openPodFile, PodFileError, readPodStream, type PodFile, type SnapshotFile } from './open-pod-file';
import { writeSnapshotSidecar } from './snapshot-provenance';

const dir = mkdtempSync(join(tmpdir(), 'nodescope-podfile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const file = (content: string | Uint8Array, name = `f${n++}.json`) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
const testdata = (name: string) => join(import.meta.dirname, 'testdata', name);

const snapshot = (f: PodFile): SnapshotFile => {
  if (f.kind !== 'snapshot') throw new Error(`expected a snapshot, got a ${f.kind}`);
  return f;
};
const printList = (pods: PodTree[], opts: { ndjson?: boolean; showManagedFields?: boolean } = {}) => {
  let out = '';
  streamPodsAsKubectl(pods, (t) => (out += t), opts);
  return out;
};
const failure = async (path: string, options?: Parameters<typeof openPodFile>[1]): Promise<PodFileError> => {
  const err = await openPodFile(path, options).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof PodFileError)) throw new Error(`expected a PodFileError, got ${String(err)}`);
  return err;
};
/** The same bytes, delivered in pieces of the given sizes (cycling), to test every chunk boundary. */
async function* inPieces(bytes: Uint8Array, sizes: number[]): AsyncIterable<Uint8Array> {
  for (let i = 0, k = 0; i < bytes.length; k++) {
    const size = sizes[k % sizes.length]!;
    yield bytes.subarray(i, i + size);
    i += size;
  }
}

if (!hasSharedPods) console.warn(`open-pod-file: shared fixtures absent at ${sharedPodsDir}; reading the project's own`);

describe.skipIf(!hasSharedPods)('real kubectl output read back (shared fixtures)', () => {
  const fixtures = loadSharedPods();

  for (const f of fixtures) {
    it(`${f.name}: kubectl's JSON, with and without managedFields, prints back byte for byte`, async () => {
      for (const [json, showManagedFields] of [[f.jsonDefault, false], [f.jsonWithManagedFields, true]] as const) {
        const opened = snapshot(await openPodFile(file(json)));
        expect(opened.format).toBe('pod-json');
        expect(opened.pods).toHaveLength(1);
        expect(podToKubectlJson(opened.pods[0]!.pod, { showManagedFields })).toBe(json);
      }
    });
  }

  it('an export of every fixture (kubectl List and NDJSON) reopens and prints back to the same bytes', async () => {
    for (const ndjson of [false, true]) {
      const exported = podBytesListToKubectl(fixtures.map((f) => f.pb), { ndjson, showManagedFields: true }).bytes;
      const opened = snapshot(await openPodFile(file(exported, `export${n++}.${ndjson ? 'ndjson' : 'json'}`)));
      expect(opened.format).toBe(ndjson ? 'ndjson' : 'list-json');
      expect(printList(opened.pods.map((p) => p.pod), { ndjson, showManagedFields: true })).toBe(Buffer.from(exported).toString());
    }
  });

  it('the same pods read from a .pb of one pod and from a saved ListPodsResponse', async () => {
    const one = snapshot(await openPodFile(file(fixtures[0]!.pb, 'one.pb')));
    expect(one.format).toBe('pod-pb');
    expect(podToKubectlJson(one.pods[0]!.pod)).toBe(fixtures[0]!.jsonDefault);
    const list = snapshot(await openPodFile(file(writeListPodsResponse(fixtures.map((f) => f.pb)), 'list.pb')));
    expect(list.format).toBe('list-pods-response-pb');
    expect(list.pods.map((p) => podToKubectlJson(p.pod))).toEqual(fixtures.map((f) => f.jsonDefault));
  });

  it('gives the same pods whatever the chunk boundaries', async () => {
    const exported = podBytesListToKubectl(fixtures.map((f) => f.pb)).bytes;
    const whole = snapshot(await readPodStream(inPieces(exported, [exported.length]), 'whole.json'));
    for (const sizes of [[1], [7, 1, 3], [4096, 13]]) {
      const pieces = snapshot(await readPodStream(inPieces(exported, sizes), 'pieces.json'));
      expect(pieces.pods).toEqual(whole.pods);
    }
  });
});

describe("the project's own kubectl output", () => {
  it('keeps an int64 beyond 2^53 exact and prints the pod back as kubectl did', async () => {
    const opened = snapshot(await openPodFile(file(webPodJson)));
    const meta = opened.pods[0]!.pod.metadata as PodObject;
    expect(meta.generation).toBe(BigInt(BIG_GENERATION));
    expect(podToKubectlJson(opened.pods[0]!.pod)).toBe(webPodJson);
    // The same tree as decoding the pod's bytes gives, for the fields the JSON carries.
    expect(podToKubectlJson(decodePod(webPodBytes()).pod)).toBe(podToKubectlJson(opened.pods[0]!.pod));
  });

  it("reads kubectl's output of several pods (concatenated objects), keeping each exact", async () => {
    const text = readFileSync(testdata('kubectl-patch-two-pods.json'), 'utf8');
    const opened = snapshot(await openPodFile(testdata('kubectl-patch-two-pods.json')));
    expect(opened.format).toBe('ndjson');
    expect(opened.pods.map((p) => (p.pod.metadata as PodObject).name)).toEqual(['web-0', 'web-1']);
    expect(opened.pods.map((p) => podToKubectlJson(p.pod)).join('')).toBe(text);
  });

  it("reads an API server's PodList (items without apiVersion and kind)", async () => {
    const opened = snapshot(await openPodFile(testdata('podlist-api-server.json')));
    expect(opened.format).toBe('list-json');
    expect(opened.pods).toHaveLength(2);
    expect(podToKubectlJson(opened.pods[0]!.pod)).toBe(webPodJson);
  });

  it('reads a top-level array of pods (jq .items) and an empty List', async () => {
    const arr = snapshot(await openPodFile(file(`[${webPodJson}]`)));
    expect(arr.format).toBe('list-json');
    expect(arr.pods).toHaveLength(1);
    const empty = snapshot(await openPodFile(file(printList([]))));
    expect(empty.pods).toEqual([]);
  });

  it('a List with "items" twice holds the last, as Go and jq read it, and says so', async () => {
    const other = webPodJson.replace('"name": "web-0"', '"name": "web-9"').replace('0b6c6f5e-7d52-4a39-9b2e-2f5b2b7f2f11', '0b6c6f5e-7d52-4a39-9b2e-2f5b2b7f2f19');
    const text = `{"apiVersion": "v1", "items": [${webPodJson}], "kind": "List", "items": [${other}, ${other.replace(/web-9/g, 'web-8').replace(/2f19/g, '2f18')}]}`;
    expect((JSON.parse(text) as { items: { metadata: { name: string } }[] }).items.map((p) => p.metadata.name)).toEqual(['web-9', 'web-8']);
    for (const sizes of [[text.length], [7, 1, 3]]) {
      const opened = snapshot(await readPodStream(inPieces(Buffer.from(text), sizes), 'twice.json'));
      expect(opened.pods.map((p) => (p.pod.metadata as PodObject).name)).toEqual(['web-9', 'web-8']);
      expect(opened.notes).toContain('the List has "items" 2 times: the last was read, as kubectl and jq read it');
    }
  });

  it('reports progress up to the whole file', async () => {
    const seen: { pods: number; bytes: number; totalBytes?: number }[] = [];
    const path = file(printList(Array.from({ length: 3 }, () => decodePod(webPodBytes()).pod)));
    await openPodFile(path, { onProgress: (p) => seen.push(p) });
    const last = seen.at(-1)!;
    expect(last.bytes).toBe(readFileSync(path).length);
    expect(last.totalBytes).toBe(last.bytes);
  });
});

describe('provenance', () => {
  it("comes from the export's sidecar; a file without one opens with none; a stale one is ignored, and said", async () => {
    const text = printList([decodePod(webPodBytes()).pod]);
    const path = file(text, 'with-sidecar.json');
    expect(snapshot(await openPodFile(path)).provenance).toEqual({});
    const provenance = { node: 'worker-1', takenAt: '2026-11-23T10:00:00.000Z', origin: 'nodescope export' };
    await writeSnapshotSidecar(path, { provenance, bytes: Buffer.byteLength(text), pods: 1 });
    expect(snapshot(await openPodFile(path)).provenance).toEqual(provenance);
    writeFileSync(path, `${text}\n`);
    const stale = snapshot(await openPodFile(path));
    expect(stale.provenance).toEqual({});
    expect(stale.notes.join('\n')).toMatch(/was replaced since/);
  });
});

describe('bad files', () => {
  const list = printList([decodePod(webPodBytes()).pod, decodePod(webPodBytes()).pod]);

  it('not JSON: names the file, line and byte, and what it opens, never what the file holds', async () => {
    for (const text of ['hello\n', '  \n Secret=hunter2\n']) {
      const path = file(text);
      const err = await failure(path);
      expect(err.problem).toBe('not-json');
      expect(err.offset).toBe(text.indexOf(text.trim()));
      expect(err.message).toContain(path);
      expect(err.message).toContain("this is not JSON at line");
      expect(err.message).toMatch(/expected '\{' or '\['/);
      expect(err.message).toMatch(/kubectl List JSON/);
      expect(err.message.replace(path, '')).not.toMatch(/'h'|'S'|hello|Secret/);
    }
    // A file that starts as a list (an INI file's [section]) or a value (a number) says what came, not what it says.
    expect((await failure(file('[db]\npassword=x\n'))).message).toContain('an item that is not an object: found other text at line 1 (byte 1)');
    expect((await failure(file('[]\nSecret'))).message).toContain('unexpected text after a complete value: found other text');
    expect((await failure(file('["x"]'))).message).toContain('an item that is not an object: found a string');
  });

  it('a syntax error inside the second pod names its exact line', async () => {
    const lines = list.split('\n');
    const at = lines.findIndex((l, i) => i > 40 && l.includes('"phase"'));
    lines[at] = lines[at]!.replace(':', '');
    const err = await failure(file(lines.join('\n')));
    expect(err.problem).toBe('not-json');
    expect(err.line).toBe(at + 1);
    expect(err.expected).toBe("':'");
  });

  it('not pods: another kind, a List of other kinds, or an object that is no pod', async () => {
    expect((await failure(file('{"apiVersion":"v1","kind":"Service","metadata":{"name":"a"}}'))).problem).toBe('not-pods');
    expect((await failure(file('{"kind":"List","items":[{"kind":"Service","metadata":{}}]}'))).message).toMatch(/no pods, only 1 Service/);
    expect((await failure(file('{"foo":1}'))).problem).toBe('not-pods');
    expect((await failure(file('[1,2]'))).problem).toBe('not-json');
  });

  it('truncated: says so, where, and how many pods came before', async () => {
    const err = await failure(file(list.slice(0, Math.floor(list.length * 0.75))));
    expect(err.problem).toBe('truncated');
    expect(err.message).toMatch(/1 pods were read before it/);
  });

  it('a snapshot keeps every pod, without a uid or sharing one, in order (pods and export print them all)', async () => {
    const noUid = list.replace('"uid": "0b6c6f5e-7d52-4a39-9b2e-2f5b2b7f2f11"', '"uid": ""');
    const twice = snapshot(await openPodFile(file(list)));
    expect(printList(twice.pods.map((p) => p.pod))).toBe(list);
    const without = snapshot(await openPodFile(file(noUid)));
    expect(without.pods.map((p) => (p.pod.metadata as PodObject).uid)).toEqual(['', '0b6c6f5e-7d52-4a39-9b2e-2f5b2b7f2f11']);
    let yaml = '';
    streamPodsAsKubectlYaml([decodePod(webPodBytes()).pod, decodePod(webPodBytes()).pod], (t) => (yaml += t));
    expect(snapshot(await openPodFile(file(yaml.replace(/ {4}uid: .*\n/, ''), 'no-uid.yaml'))).pods).toHaveLength(2);
    expect(snapshot(await openPodFile(file(writeListPodsResponse([webPodBytes(), webPodBytes()]), 'twice.pb'))).pods).toHaveLength(2);
  });

  it("a recording's pod without uid is refused with its line: a recording follows pods by uid", async () => {
    const pod = JSON.stringify(JSON.parse(webPodJson.replace('"uid": "0b6c6f5e-7d52-4a39-9b2e-2f5b2b7f2f11"', '"uid": ""')));
    const text = `{"nodescopeRecording":1,"startedAt":"2026-11-23T10:00:00Z"}\n{"time":"2026-11-23T10:00:00Z","type":"INITIAL","object":${pod}}\n`;
    const err = await failure(file(text, 'r.recording'));
    expect(err.problem).toBe('no-uid');
    expect(err.message).toMatch(/pod default\/web-0 has no metadata.uid/);
    expect(err.line).toBe(2);
  });

  it('a value of the wrong type names the pod and the field path', async () => {
    const err = await failure(file(webPodJson.replace('"phase": "Running"', '"phase": 7')));
    expect(err.problem).toBe('bad-value');
    expect(err.message).toMatch(/default\/web-0: status.phase: expected a string, found number 7/);
  });

  it('an int64 written as a float beyond int64 (1e20) is refused as Go refuses it: file, line, field path, range', async () => {
    // JSON.parse rounds it, the exact parse keeps it a float: both passes used to throw, and the CLI exited 70 with no message.
    const json = file(list.replace(/"generation": \d+/, '"generation": 1e20'));
    const err = await failure(json);
    expect(err.problem).toBe('bad-value');
    expect(err.line).toBe(4);
    expect(err.message).toContain(json);
    expect(err.message).toMatch(/pod default\/web-0: metadata\.generation: expected a 64-bit integer, found number 100000000000000000000 \(out of int64 range\)/);
    const inRange = await failure(file(webPodJson.replace(/"generation": \d+/, '"generation": 1e18')));
    expect(inRange.message).toMatch(/metadata\.generation: expected a 64-bit integer written in digits, found number 1000000000000000000/);
    let yaml = '';
    streamPodsAsKubectlYaml([decodePod(webPodBytes()).pod], (t) => (yaml += t));
    const fromYaml = await failure(file(yaml.replace(/generation: \d+/, 'generation: 1e20'), 'float.yaml'));
    expect(fromYaml.problem).toBe('bad-value');
    expect(fromYaml.message).toMatch(/metadata\.generation: expected a 64-bit integer, found number 100000000000000000000 \(out of int64 range\)/);
  });

  it('deep nesting is refused without exhausting the stack', async () => {
    const err = await failure(file('{"a":'.repeat(200_000)));
    expect(err.problem).toBe('too-deep');
    const inPod = await failure(file(webPodJson.replace('"note":', `"x": ${'['.repeat(100)}${']'.repeat(100)}, "note":`)));
    expect(inPod.problem).toBe('too-deep');
  });

  it('an enormous string is refused at the size limit, not read into memory', async () => {
    const big = webPodJson.replace('"note":', `"huge": "${'x'.repeat(3 * 1024 * 1024)}", "note":`);
    const err = await failure(file(big), { limits: { maxPieceBytes: 1024 * 1024 } });
    expect(err.problem).toBe('too-large');
    expect(err.message).toMatch(/larger than 1 MiB/);
  });

  it('too many pods for memory: refused once past the pod limit, saying how many were read, the limit and what to do', async () => {
    const ndjson = Array.from({ length: 5 }, (_, i) => `{"metadata":{"name":"p${i}","uid":"u${i}"}}`).join('\n');
    const err = await failure(file(ndjson, 'five.ndjson'), { limits: { maxPods: 3 } });
    expect(err.problem).toBe('too-many');
    expect(err.message).toMatch(/the file holds more than 3 pods \(4 read, 0 MB of the file's 0 MB\); Nodescope keeps a file's pods in memory and opens at most 3/);
    expect(err.nextStep).toMatch(/split -l 100000/);
    // A .pb list and YAML count their pods as well.
    const pb = await failure(file(writeListPodsResponse([webPodBytes(), webPodBytes()]), 'two.pb'), { limits: { maxPods: 1 } });
    expect(pb.problem).toBe('too-many');
    expect(snapshot(await openPodFile(file(ndjson, 'fits.ndjson'), { limits: { maxPods: 5 } })).pods).toHaveLength(5);
  });

  it('pods whose objects fill the heap are refused before memory runs out, whatever their count', async () => {
    const ndjson = Array.from({ length: 200 }, (_, i) => `{"metadata":{"name":"p${i}","uid":"u${i}"}}`).join('\n');
    // The heap as the pods read fill it: 10 units a chunk of a 1,000-unit limit.
    let used = 0;
    const heap = () => ({ used: (used += 10), limit: 1000 });
    const err = await readPodStream(inPieces(Buffer.from(ndjson), [64]), 'heavy.ndjson', { heap, limits: { maxHeapShare: 0.5 } }).then(
      () => undefined,
      (e: unknown) => e as PodFileError,
    );
    expect(err?.problem).toBe('too-many');
    expect(err?.message).toMatch(/^heavy\.ndjson: the \d+ pods read \(up to byte [\d,]+\) fill 0 MB of the 0 MB of memory this process may use: the rest would not fit\./);
    expect(used).toBe(510);
  });

  it('a file of more pods than the default limit (1,000,000: a 484 MB NDJSON of 15 M tiny pods has more) is refused, not run out of memory', async () => {
    const line = (i: number) => `{"metadata":{"name":"p${i}","uid":"u${i}"}}\n`;
    async function* lines(): AsyncIterable<Uint8Array> {
      for (let i = 0; i < 1_000_100; ) {
        let chunk = '';
        for (const end = i + 50_000; i < end; i++) chunk += line(i);
        yield Buffer.from(chunk);
      }
    }
    const err = await readPodStream(lines(), 'many.ndjson').then(
      () => undefined,
      (e: unknown) => e as PodFileError,
    );
    expect(err?.problem).toBe('too-many');
    expect(err?.message).toMatch(/more than 1,000,000 pods \(1,000,001 read/);
  }, 120_000);

  it('a file over 2 GiB is refused before reading, with what to do', async () => {
    const path = join(dir, 'huge.json');
    writeFileSync(path, '');
    truncateSync(path, 2 * 1024 ** 3 + 1); // sparse: no disk used
    const err = await failure(path);
    expect(err.problem).toBe('too-large');
    expect(err.message).toMatch(/up to 2.0 GiB/);
    expect(err.nextStep).toMatch(/split/);
    rmSync(path);
  });

  it('empty, YAML without pods, a folder and a missing file each say what they are', async () => {
    expect((await failure(file(''))).problem).toBe('empty');
    expect((await failure(file('  \n'))).problem).toBe('empty');
    expect((await failure(file('apiVersion: v1\nkind: Service\n'))).message).toMatch(/a Service, not a Pod/);
    expect((await failure(file('apiVersion: v1\nkind: Pod\nspec: [\n'))).problem).toBe('not-pods');
    const folder = join(dir, 'folder.json');
    mkdirSync(folder);
    expect((await failure(folder)).message).toMatch(/a folder/);
    expect((await failure(join(dir, 'missing.json'))).message).toMatch(/no such file/);
  });

  it('pod bytes that do not decode give the byte offset', async () => {
    const bytes = Buffer.from(webPodBytes());
    const err = await failure(file(bytes.subarray(0, bytes.length - 5), 'cut.pb'));
    expect(err.problem).toBe('bad-value');
    expect(err.offset).toBeGreaterThan(0);
  });

  it('a .pb whose length varint overflows 32 bits is refused with its offset, not wrapped and decoded', async () => {
    const err = await failure(file(new Uint8Array([0x0a, 0x89, 0x80, 0x80, 0x80, 0x10, 0x0a, 0x07, ...Buffer.from('abcdefg')]), 'wrap.pb'));
    expect(err.problem).toBe('bad-value');
    expect(err.offset).toBe(1);
    expect(err.message).toMatch(/larger than 4294967295/);
  });

  it('leaves every bad file exactly as it was', async () => {
    const paths = [file('{"items": [ {"metadata": '), file(list.replace('"uid"', '"uid": 5, "x"'))];
    for (const path of paths) {
      const before = createHash('sha256').update(readFileSync(path)).digest('hex');
      await failure(path);
      expect(createHash('sha256').update(readFileSync(path)).digest('hex')).toBe(before);
    }
  });

  it('stops when the caller aborts', async () => {
    const err = await failure(file(list), { signal: AbortSignal.abort() });
    expect(err.problem).toBe('aborted');
  });
});

describe('YAML pod files', () => {
  const yamlCases = join(import.meta.dirname, '..', 'pod', 'testdata', 'yaml');

  // The every-field cases are left out: they carry `time: null` in managedFields, which kubectl's unstructured
  // patch keeps but no Go server sends (it omits a nil time), and a pod read back prints as the server would.
  it.each(['big-ints', 'empty-collections', 'line-separators', 'long-strings', 'odd-keys', ...[0, 1, 2, 3, 4, 5].map((i) => `odd-strings-0${i}`)])('reads kubectl\'s own YAML of %s back to a pod that prints those bytes again', async (name) => {
    const kubectlYaml = readFileSync(join(yamlCases, `${name}.yaml`), 'utf8');
    const opened = snapshot(await openPodFile(file(kubectlYaml, `${name}.yaml`)));
    expect(opened.format).toBe('yaml');
    expect(opened.pods).toHaveLength(1);
    expect(podToKubectlYaml(opened.pods[0]!.pod, { showManagedFields: true }).yaml).toBe(kubectlYaml);
  });

  it('refuses tagged values (!!binary, !custom) naming the file, the line and what to do, instead of reading them as text', async () => {
    const pod = (data: string, key = 'data') => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  uid: u1\n  annotations:\n    ${key}: ${data}\n`;
    for (const [text, tag] of [[pod('!!binary aGVsbG8='), '!!binary'], [pod('!custom x'), '!custom'], [pod('!!str 5'), '!!str'], [pod('x', '!k key'), '!k'], [pod('!!map {a: b}'), '!!map']]) {
      const err = await failure(file(text!, 'tagged.yaml'));
      expect(err.problem, text).toBe('bad-value');
      expect(err.line, text).toBe(7);
      expect(err.message, text).toContain(`tagged.yaml: document 1.metadata.annotations`);
      expect(err.message, text).toContain(`the tag ${tag}, which kubectl never writes (Nodescope does not guess what a tagged value means) at line 7`);
      expect(err.nextStep, text).toMatch(/Fix or remove that pod in a copy of the file/);
    }
    const alias = await failure(file(`apiVersion: v1\nkind: Pod\nmetadata:\n  name: &n a\n  uid: u1\n  labels:\n    n: *n\n`, 'alias.yaml'));
    expect(alias.message).toMatch(/alias\.yaml: document 1\.metadata\.labels\.n: an alias \(\*n\), which kubectl never writes at line 7/);
  });

  it('is parsed off the event loop: the loop turns while a big YAML file is read, and its pods arrive whole', async () => {
    const pods = Array.from({ length: 300 }, () => decodePod(webPodBytes()).pod);
    let yaml = '';
    streamPodsAsKubectlYaml(pods, (t) => (yaml += t));
    // The whole file in one chunk: reading it takes no turn of the loop, so every turn counted is the parse's.
    let turns = 0;
    let done = false;
    const turn = () => {
      if (done) return;
      turns++;
      setImmediate(turn);
    };
    setImmediate(turn);
    const opened = snapshot(await readPodStream(inPieces(Buffer.from(yaml), [yaml.length]), 'big.yaml'));
    done = true;
    expect(turns).toBeGreaterThan(1);
    expect(opened.pods.map((p) => podToKubectlJson(p.pod))).toEqual(pods.map((p) => podToKubectlJson(p)));
  });

  it('a YAML file over the YAML limit is refused with why and what to do instead', async () => {
    let yaml = '';
    streamPodsAsKubectlYaml([decodePod(webPodBytes()).pod], (t) => (yaml += t));
    const err = await failure(file(yaml, 'big.yaml'), { limits: { maxYamlBytes: 100 } });
    expect(err.problem).toBe('too-large');
    expect(err.message).toMatch(/this YAML is larger than 100 bytes; Nodescope reads YAML pod files of up to 100 bytes, since YAML is read whole/);
    expect(err.nextStep).toMatch(/kubectl get pods -o json/);
    const bad = await failure(file('apiVersion: v1\nkind: Pod\nspec: [\n', 'bad.yaml'));
    expect(bad.problem).toBe('not-pods');
  });

  it('opens a YAML List export of every shared fixture with each pod as it was', async () => {
    const pods = hasSharedPods ? loadSharedPods().map((f) => decodePod(f.pb).pod) : [decodePod(webPodBytes()).pod];
    let yaml = '';
    streamPodsAsKubectlYaml(pods, (t) => (yaml += t), { showManagedFields: true });
    const opened = snapshot(await openPodFile(file(yaml, 'list.yaml')));
    expect(opened.pods.map((p) => podToKubectlJson(p.pod, { showManagedFields: true }))).toEqual(pods.map((p) => podToKubectlJson(p, { showManagedFields: true })));
  });
});
