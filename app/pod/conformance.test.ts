import { describe, expect, it } from 'vitest';
import { hasSharedPods, loadSharedPods, sharedPodsDir } from '../testing/shared-fixtures';
import { decodePod } from './decode';
import { encodePod } from './encode';
import { podBytesListToKubectl, podBytesToKubectlJson, podsToKubectlListJson, podToKubectlJson } from './kubectl-json';

// The real pods of ../shared/fixtures/pods: what kubectl printed for each, byte for byte.
if (!hasSharedPods) console.warn(`conformance: skipped, no shared fixtures at ${sharedPodsDir}`);

describe.skipIf(!hasSharedPods)('conformance with kubectl on real pods', () => {
  const fixtures = loadSharedPods();

  it('has the fixtures it expects', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(20);
  });

  for (const f of fixtures) {
    it(`${f.name}: decodes and prints exactly as kubectl, with and without managed fields`, () => {
      const { pod, unknownFields } = decodePod(f.pb, f.name);
      expect(unknownFields).toEqual([]);
      expect(podToKubectlJson(pod, { showManagedFields: true })).toBe(f.jsonWithManagedFields);
      expect(podToKubectlJson(pod)).toBe(f.jsonDefault);
    });

    it(`${f.name}: prints the same straight from the bytes (the export fast path)`, () => {
      expect(podBytesToKubectlJson(f.pb, { showManagedFields: true })).toEqual({ json: f.jsonWithManagedFields, unknownFields: [] });
      expect(podBytesToKubectlJson(f.pb).json).toBe(f.jsonDefault);
    });

    it(`${f.name}: re-encodes to the very bytes the kubelet's Go code wrote`, () => {
      expect(Buffer.from(encodePod(decodePod(f.pb).pod)).equals(Buffer.from(f.pb))).toBe(true);
    });
  }

  it('prints all of them as one kubectl List whose items are the pods', () => {
    const list = JSON.parse(podsToKubectlListJson(fixtures.map((f) => decodePod(f.pb).pod)));
    expect(list.items).toEqual(fixtures.map((f) => JSON.parse(f.jsonDefault)));
    const fromBytes = podBytesListToKubectl(fixtures.map((f) => f.pb));
    expect(new TextDecoder().decode(fromBytes.bytes)).toBe(podsToKubectlListJson(fixtures.map((f) => decodePod(f.pb).pod)));
  });
});
