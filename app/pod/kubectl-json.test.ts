import { describe, expect, it } from 'vitest';
import { decodePod } from './decode';
import { podsToKubectlListJson, podToKubectlJson, podToNdjsonLine } from './kubectl-json';
import { managedFieldsJson, specWithHostPathVolume, webPodBytes, webPodJson, withManagedFields } from './testdata/handmade-pods';

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

  it('prints NDJSON lines as Go compact JSON of the same object', () => {
    const line = podToNdjsonLine(decodePod(webPodBytes()).pod);
    expect(line).not.toContain('\n');
    expect(line.startsWith('{"apiVersion":"v1","kind":"Pod","metadata":{"annotations":{"note":"\\u003ca\\u003e')).toBe(true);
    expect(line).toContain('"generation":1152921504606846977,');
    expect(JSON.stringify(JSON.parse(line), null, 4)).toBe(JSON.stringify(JSON.parse(webPodJson), null, 4));
  });
});
