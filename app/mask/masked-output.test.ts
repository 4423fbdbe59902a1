import { describe, expect, it } from 'vitest';
import { decodePod } from '../pod/decode';
import { encodePod } from '../pod/encode';
import { podToKubectlJson, podToNdjsonLine, podsToKubectlListJson } from '../pod/kubectl-json';
import { webPodBytes, webPodJson } from '../pod/testdata/handmade-pods';
import { hasSharedPods, loadSharedPods } from '../testing/shared-fixtures';
import { applyFieldMask, parseFieldMask, type FieldMask, type Selection } from './field-mask';
import { BUILT_IN_PRESETS, parseMaskWithPresets } from './mask-presets';

/** kubectl's JSON of the whole pod cut down to the mask, at the JSON level: what a masked output must be. */
function project(value: unknown, selection: Selection | undefined): unknown {
  if (selection === undefined || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((element) => project(element, selection));
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    if (selection.byName.has(key)) out[key] = project(inner, selection.byName.get(key));
  }
  return out;
}

function expectedMasked(kubectlJson: string, mask: FieldMask): unknown {
  const { apiVersion, kind, ...pod } = JSON.parse(kubectlJson) as Record<string, unknown>;
  // apiVersion and kind are printed by kubectl, not sent by the kubelet: a masked pod keeps them so tools still know what it is.
  return { apiVersion, kind, ...(project(pod, mask.selection) as object) };
}

/** Same values and the same key order (kubectl's), so the text differs only where the full pod did. */
const canonical = (text: string) => JSON.stringify(JSON.parse(text));

const MASKS_ON_LISTS_AND_MAPS = [
  'status.containerStatuses.ready',
  'status.containerStatuses.ready, status.containerStatuses.name',
  'metadata.labels',
  'metadata.labels, metadata.annotations, spec.nodeSelector',
  'spec.containers.resources.limits, spec.containers.env.valueFrom.fieldRef.fieldPath',
  'spec.volumes.hostPath.path, spec.volumes.name',
  'metadata.managedFields.manager, status.conditions.type',
];

const masks: [string, FieldMask][] = [
  ...BUILT_IN_PRESETS.map((p): [string, FieldMask] => [`@${p.name}`, parseMaskWithPresets(`@${p.name}`, BUILT_IN_PRESETS)]),
  ...MASKS_ON_LISTS_AND_MAPS.map((m): [string, FieldMask] => [m, parseFieldMask(m)]),
  ['@readiness, metadata.name', parseMaskWithPresets('@readiness, metadata.name', BUILT_IN_PRESETS)],
];

/** Every output of a masked pod holds exactly the mask's part of kubectl's JSON: nothing else, nothing lost. */
function expectExactly(pod: ReturnType<typeof decodePod>['pod'], kubectlJson: string, label: string): void {
  for (const [text, mask] of masks) {
    const masked = applyFieldMask(pod, mask);
    const expected = JSON.stringify(expectedMasked(kubectlJson, mask));
    const options = { mask, showManagedFields: true };
    expect(canonical(podToKubectlJson(masked, options)), `${label} ${text}`).toBe(expected);
    expect(canonical(podToNdjsonLine(masked, options)), `${label} ${text} ndjson`).toBe(expected);
    // What a kubelet that honours the mask sends prints the same.
    expect(canonical(podToKubectlJson(decodePod(encodePod(masked)).pod, options)), `${label} ${text} wire`).toBe(expected);
    const list = JSON.parse(podsToKubectlListJson([masked], options)) as { items: unknown[] };
    expect(JSON.stringify(list.items[0]), `${label} ${text} list`).toBe(expected);
  }
}

describe('masked output', () => {
  it('holds exactly the selected fields of a hand-made pod, under every preset and masks on lists and maps', () => {
    expectExactly(decodePod(webPodBytes()).pod, webPodJson, 'web pod');
  });

  it.runIf(hasSharedPods)('holds exactly the selected fields of every shared real pod', () => {
    const fixtures = loadSharedPods();
    expect(fixtures.length).toBeGreaterThan(0);
    for (const fixture of fixtures) expectExactly(decodePod(fixture.pb, fixture.name).pod, fixture.jsonWithManagedFields, fixture.name);
  });

  it('fills in no Go zero value for a field the mask left out', () => {
    const mask = parseFieldMask('metadata.name, metadata.namespace, status.phase, spec.containers.image');
    const text = podToKubectlJson(applyFieldMask(decodePod(webPodBytes()).pod, mask), { mask });
    expect(text).not.toMatch(/"ready"|"name": ""|"containers": null|"resources"|"restartCount"/);
    const json = JSON.parse(text) as { spec: { containers: object[] } };
    for (const container of json.spec.containers) expect(Object.keys(container)).toEqual(['image']);
  });

  it('keeps each element of a list with only the selected member: status.containerStatuses.ready', () => {
    const mask = parseFieldMask('status.containerStatuses.ready');
    const pod = {
      metadata: { name: 'web', labels: { app: 'web' } },
      status: {
        phase: 'Running',
        containerStatuses: [
          { name: 'web', ready: true, restartCount: 0, image: 'nginx', imageID: '' },
          { name: 'envoy', ready: false, restartCount: 3, image: 'envoy', imageID: '' },
        ],
      },
    };
    const json = JSON.parse(podToKubectlJson(applyFieldMask(pod, mask), { mask })) as Record<string, unknown>;
    expect(json).toEqual({ apiVersion: 'v1', kind: 'Pod', status: { containerStatuses: [{ ready: true }, { ready: false }] } });
  });
});
