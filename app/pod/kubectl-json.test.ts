import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { decodePod } from './decode';
import { printListPart, streamPodBytesAsKubectl, streamPodsAsKubectl, podBytesListToKubectl, podBytesToKubectlJson, podBytesToNdjsonLine, podsToKubectlListJson, podToKubectlJson, podToNdjsonLine } from './kubectl-json';
import { readFileSync } from 'node:fs';
import { FIELDS_V1_MAX_DEPTH } from './decode-context';
import { encodePod } from './encode';
import type { PodTree } from './pod-tree';
import { managedFieldsJson, mapEntry, msg, specWithHostPathVolume, str, webPodBytes, webPodJson, withDeepManagedFields, withManagedFields } from './testdata/handmade-pods';

const print = (bytes: Uint8Array, showManagedFields = false) => podToKubectlJson(decodePod(bytes).pod, { showManagedFields });

describe('kubectl JSON of a pod', () => {
  it('prints exactly what kubectl prints: Go rules, sorted keys, HTML-safe escaping, exact int64', () => {
    expect(print(webPodBytes())).toBe(webPodJson);
  });

  it('hides managedFields unless asked, and prints FieldsV1 parsed and sorted when shown', () => {
    const bytes = webPodBytes({ metaExtra: withManagedFields });
    expect(print(bytes)).toBe(webPodJson);
    const shown = print(bytes, true);
    expect(shown).toBe(webPodJson.replace('        "name": "web-0",\n', `${managedFieldsJson}        "name": "web-0",\n`));
  });

  it('inlines embedded structs such as Volume.volumeSource', () => {
    const out = print(webPodBytes({ specExtra: specWithHostPathVolume }));
    expect(out).toContain(`        "volumes": [
            {
                "hostPath": {
                    "path": "/var/data"
                },
                "name": "data"
            }
        ]`);
  });

  it('prints several pods as a kubectl List, and an empty one with an empty items array', () => {
    const pod = decodePod(webPodBytes()).pod;
    const list = podsToKubectlListJson([pod, pod]);
    const item = webPodJson.trimEnd().replace(/\n/g, '\n        ');
    expect(list).toBe(`{\n    "apiVersion": "v1",\n    "items": [\n        ${item},\n        ${item}\n    ],\n    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    }\n}\n`);
    expect(JSON.parse(podsToKubectlListJson([]))).toEqual({ apiVersion: 'v1', items: [], kind: 'List', metadata: { resourceVersion: '' } });
  });

  it('streams trees as the same List or NDJSON text, one piece per pod', () => {
    const pod = decodePod(webPodBytes()).pod;
    const pieces: string[] = [];
    streamPodsAsKubectl([pod, pod, pod], (t) => pieces.push(t), { ndjson: true });
    expect(pieces).toEqual(Array(3).fill(`${podToNdjsonLine(pod)}\n`));
    const list: string[] = [];
    streamPodsAsKubectl([pod, pod], (t) => list.push(t));
    expect(list).toHaveLength(4);
    expect(list.join('')).toBe(podsToKubectlListJson([pod, pod]));
  });

  it('prints NDJSON lines as Go compact JSON of the same object', () => {
    const line = podToNdjsonLine(decodePod(webPodBytes()).pod);
    expect(line).not.toContain('\n');
    expect(line.startsWith('{"apiVersion":"v1","kind":"Pod","metadata":{"annotations":{"note":"\\u003ca\\u003e')).toBe(true);
    expect(line).toContain('"generation":1152921504606846977,');
    expect(JSON.stringify(JSON.parse(line), null, 4)).toBe(JSON.stringify(JSON.parse(webPodJson), null, 4));
  });
});

describe('kubectl JSON straight from pod bytes', () => {
  it('prints exactly what the tree printer prints, in both layouts', () => {
    const bytes = webPodBytes({ metaExtra: withManagedFields, specExtra: specWithHostPathVolume });
    const pod = decodePod(bytes).pod;
    for (const showManagedFields of [false, true]) {
      expect(podBytesToKubectlJson(bytes, { showManagedFields }).json).toBe(podToKubectlJson(pod, { showManagedFields }));
      expect(podBytesToNdjsonLine(bytes, { showManagedFields }).json).toBe(podToNdjsonLine(pod, { showManagedFields }));
    }
  });

  it('reports fields it does not know with their paths, like the tree decoder', () => {
    const bytes = webPodBytes({ containerExtra: (c) => str(c, 1000, 'x') });
    const printed = podBytesToKubectlJson(bytes);
    expect(printed.json).toBe(webPodJson);
    expect(printed.unknownFields).toEqual(decodePod(bytes).unknownFields);
    expect(printed.unknownFields[0]!.path).toBe('spec.containers[0]');
  });

  it('names the pod and the offset of malformed bytes, and keeps the good pods of a list', () => {
    const good = webPodBytes();
    expect(() => podBytesToKubectlJson(good.subarray(0, good.length - 3), {}, 'cut.pb')).toThrowError(/cannot decode pod default\/web-0 \(cut\.pb, uid 0b6c6f5e-7d52-4a39-9b2e-2f5b2b7f2f11\): .* at byte offset \d+/);
    const list = podBytesListToKubectl([good, good.subarray(0, 20), good]);
    expect(JSON.parse(new TextDecoder().decode(list.bytes)).items).toHaveLength(2);
    expect(list.errors.map((e) => e.pod)).toEqual(['pods[1]']);
    const lines = new TextDecoder().decode(podBytesListToKubectl([good, good], { ndjson: true }).bytes);
    expect(lines).toBe(`${podToNdjsonLine(decodePod(good).pod)}\n`.repeat(2));
  });

  it('streams a large export in chunks that add up to the whole List', () => {
    const pod = webPodBytes({ metaExtra: (m) => mapEntry(m, 12, 'big', 'x'.repeat(30_000)) });
    const chunks: Uint8Array[] = [];
    const result = streamPodBytesAsKubectl(Array(100).fill(pod), (c) => chunks.push(c.slice()));
    expect(chunks.length).toBeGreaterThan(1);
    expect(result.errors).toEqual([]);
    const text = Buffer.concat(chunks).toString('utf8');
    expect(text).toBe(new TextDecoder().decode(podBytesListToKubectl(Array(100).fill(pod)).bytes));
    expect(JSON.parse(text).items).toHaveLength(100);
  });

  it('prints a part of a List into the buffer it is given, or a larger one, as the streamed part', () => {
    const pods = [webPodBytes(), webPodBytes().subarray(0, 20), webPodBytes({ specExtra: specWithHostPathVolume })];
    for (const ndjson of [false, true]) {
      const chunks: Uint8Array[] = [];
      const streamed = streamPodBytesAsKubectl(pods, (c) => chunks.push(c.slice()), { ndjson, listPart: true });
      const into = new Uint8Array(64);
      const printed = printListPart(pods, into, { ndjson });
      expect(Buffer.from(printed.part).toString()).toBe(Buffer.concat(chunks).toString());
      expect(printed.part.buffer).not.toBe(into.buffer);
      expect(printed.errors.map((e) => e.label)).toEqual(streamed.errors.map((e) => e.label));
      // The shared writer has its own buffer back: the part can move to another thread.
      expect(podBytesToKubectlJson(pods[0]!).json).toBe(webPodJson);
    }
    const roomy = new Uint8Array(1 << 20);
    expect(printListPart([webPodBytes()], roomy, {}).part.buffer).toBe(roomy.buffer);
  });

  it('prints an absent non-pointer struct as its zero value, as Go does for a masked pod', () => {
    const zeroSpec = '    "spec": {\n        "containers": null\n    },\n';
    const metaOnly = protobuf.Writer.create();
    msg(metaOnly, 1, (m) => str(m, 1, 'p'));
    const bytes = metaOnly.finish();
    expect(podBytesToKubectlJson(bytes).json).toContain(zeroSpec);
    expect(podToKubectlJson(decodePod(bytes).pod)).toContain(zeroSpec);
    expect(podToKubectlJson({ metadata: { name: 'p' } })).toBe(podBytesToKubectlJson(bytes).json);
  });
});

describe('managedFields nested deep', () => {
  /** How many `f:a` levels a printed pod's fieldsV1 holds (one less than its depth: the innermost is `{}`). */
  const levels = (json: string) => json.split('"f:a"').length - 1;

  it('prints 140 levels exactly as kubectl does, from the tree and from the bytes', () => {
    const expected = readFileSync(new URL('./testdata/kubectl-managed-fields-140-deep.json', import.meta.url), 'utf8');
    const bytes = webPodBytes({ metaExtra: withDeepManagedFields(140) });
    expect(print(bytes, true)).toBe(expected);
    expect(podBytesToKubectlJson(bytes, { showManagedFields: true }).json).toBe(expected);
  });

  it('prints the deepest fieldsV1 kubectl prints, in both layouts, without running out of stack', () => {
    const bytes = webPodBytes({ metaExtra: withDeepManagedFields(FIELDS_V1_MAX_DEPTH) });
    const line = podBytesToNdjsonLine(bytes, { showManagedFields: true }).json;
    expect(line).not.toContain('undefined');
    expect(levels(line)).toBe(FIELDS_V1_MAX_DEPTH - 1);
    expect(podToNdjsonLine(decodePod(bytes).pod, { showManagedFields: true })).toBe(line);
    // The indented form grows with the square of the depth (kubectl's too): 3000 levels are 36 MB.
    const indented = webPodBytes({ metaExtra: withDeepManagedFields(3000) });
    const json = podBytesToKubectlJson(indented, { showManagedFields: true }).json;
    expect(levels(json)).toBe(2999);
    expect(json).toContain(`\n${' '.repeat(4 * 3003)}"f:a": {}\n`);
    expect(print(indented, true)).toBe(json);
  });

  it('refuses deeper fieldsV1 for that pod only, with what the limit is', () => {
    const good = webPodBytes();
    for (const depth of [FIELDS_V1_MAX_DEPTH + 1, 100_000]) {
      const deep = webPodBytes({ metaExtra: withDeepManagedFields(depth) });
      expect(() => podBytesToKubectlJson(deep, { showManagedFields: true }, 'deep.pb')).toThrowError(
        new RegExp(`cannot decode pod default/web-0 \\(deep.pb, uid 0b6c6f5e-7d52-4a39-9b2e-2f5b2b7f2f11\\): fieldsV1 is nested ${depth} levels deep; kubectl cannot read or print more than ${FIELDS_V1_MAX_DEPTH}.* at byte offset \\d+ \\(in metadata.managedFields\\[0\\]`),
      );
      expect(() => decodePod(deep)).toThrowError(/fieldsV1 is nested/);
      const list = podBytesListToKubectl([good, deep, good], { showManagedFields: true });
      expect(JSON.parse(new TextDecoder().decode(list.bytes)).items).toHaveLength(2);
      expect(list.errors.map((e) => e.pod)).toEqual(['default/web-0']);
    }
  });
});

describe('pointer fields without omitempty', () => {
  it('print null when absent, as kubectl prints the API server\'s pod (GRPCAction.service, ScaleIO secretRef, apiGroup)', () => {
    // The expected file is kubectl's: `kubectl set resources --local` marshals the typed pod as the API server
    // does, then `kubectl patch --local` prints it as `kubectl get` (testdata/null-pointers.pod.json, cpu 1 -> 2).
    const read = (name: string) => readFileSync(new URL(`./testdata/${name}`, import.meta.url), 'utf8');
    const expected = read('null-pointers.kubectl.json');
    const { apiVersion: _v, kind: _k, ...tree } = JSON.parse(read('null-pointers.pod.json')) as Record<string, unknown>;
    const bytes = encodePod(tree as PodTree);
    expect(print(bytes)).toBe(expected);
    expect(podBytesToKubectlJson(bytes).json).toBe(expected);
    expect(podBytesToNdjsonLine(bytes).json).toContain('"grpc":{"port":8080,"service":null}');
    expect(podToNdjsonLine(decodePod(bytes).pod)).toContain('"grpc":{"port":8080,"service":null}');
  });
});
