// Fidelity of the REST path: the kubelet's /pods JSON, read by Nodescope and printed, is exactly what
// kubectl prints for the same pods, and the same bytes the Pods API would have carried.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { encodePod } from '../pod/encode';
import { podBytesToKubectlJson } from '../pod/kubectl-json';
import { PodGenerator } from '../sim/pod-generator';
import { podListJson } from '../sim/kubelet-rest-server';
import { hasSharedPods, loadSharedPods } from '../testing/shared-fixtures';
import { parseFieldMask } from '../mask/field-mask';
import { readRestPodList } from './kubelet-rest-pods';

const testdata = (name: string) => join(dirname(fileURLToPath(import.meta.url)), '..', 'snapshot', 'testdata', name);
const where = 'https://127.0.0.1:10250/pods on node-1';

describe('reading the kubelet /pods answer', () => {
  it("prints a PodList's pods exactly as kubectl printed them (kubectl patch --local output kept in testdata)", () => {
    const list = readRestPodList(readFileSync(testdata('podlist-api-server.json')), where, undefined);
    const printed = list.bytes.map((b) => podBytesToKubectlJson(b).json).join('');
    expect(printed).toBe(readFileSync(testdata('kubectl-patch-two-pods.json'), 'utf8'));
    // An int64 beyond 2^53 survived the JSON parse exactly.
    expect(printed).toContain('"generation": 1152921504606846977');
  });

  it.runIf(hasSharedPods)('prints every shared real pod, served as kubelet JSON, as kubectl printed it', () => {
    const fixtures = loadSharedPods();
    const items = fixtures.map((f) => JSON.stringify(JSON.parse(f.jsonWithManagedFields)));
    const body = Buffer.from(`{"kind":"PodList","apiVersion":"v1","metadata":{},"items":[${items.join(',')}]}`);
    const { pods, bytes } = readRestPodList(body, where, undefined);
    expect(pods).toHaveLength(fixtures.length);
    for (const [i, f] of fixtures.entries()) {
      expect(podBytesToKubectlJson(bytes[i]!).json, f.name).toBe(f.jsonDefault);
      expect(podBytesToKubectlJson(bytes[i]!, { showManagedFields: true }).json, f.name).toBe(f.jsonWithManagedFields);
    }
  });

  it("prints the simulator's pods read through /pods exactly as read through the Pods API", () => {
    const generator = new PodGenerator({ seed: 3, nodeName: 'n' });
    const trees = Array.from({ length: 60 }, () => generator.existing(Date.now()));
    const { pods, bytes } = readRestPodList(Buffer.from(podListJson(trees)), where, undefined);
    expect(pods.map((p) => p.uid)).toEqual(trees.map((t) => (t.metadata as { uid: string }).uid));
    for (const [i, tree] of trees.entries()) {
      expect(podBytesToKubectlJson(bytes[i]!).json).toBe(podBytesToKubectlJson(encodePod(tree)).json);
    }
  });

  it('applies a mask locally and says the kubelet did not', () => {
    const generator = new PodGenerator({ seed: 4, nodeName: 'n' });
    const tree = generator.existing(Date.now());
    const list = readRestPodList(Buffer.from(podListJson([tree])), where, parseFieldMask('metadata.name'));
    expect(list.maskHonoured).toBe(false);
    expect(list.pods[0]!.pod.metadata).toEqual({ name: (tree.metadata as { name: string }).name });
  });

  it('fails as a whole, saying so, on an answer that is not a PodList or not JSON', () => {
    expect(() => readRestPodList(Buffer.from('{"kind":"Status"}'), where, undefined)).toThrow(/did not answer with a PodList/);
    expect(() => readRestPodList(Buffer.from('<html>404 page not found'), where, undefined)).toThrow(
      new RegExp(`^${where.replace(/[./]/g, '\\$&')} did not answer with JSON Nodescope can read: `),
    );
  });

  it('leaves out a pod that does not fit the pod schema, naming it, and keeps every other pod with its bytes', () => {
    const generator = new PodGenerator({ seed: 5, nodeName: 'n' });
    const trees = Array.from({ length: 4 }, () => generator.existing(Date.now()));
    const items = (JSON.parse(podListJson(trees)) as { items: Record<string, { uid: string; name: string; namespace: string }>[] }).items;
    const bad = items[1]!;
    (bad as Record<string, unknown>).status = 'Running';
    // Not a pod at all: named by its place in the list only.
    const body = JSON.stringify({ kind: 'PodList', apiVersion: 'v1', metadata: {}, items: [...items, 7] });
    const list = readRestPodList(Buffer.from(body), where, undefined);

    const good = [trees[0]!, trees[2]!, trees[3]!];
    expect(list.pods.map((p) => p.uid)).toEqual(good.map((t) => (t.metadata as { uid: string }).uid));
    expect(list.bytes.map((b) => podBytesToKubectlJson(b).json)).toEqual(good.map((t) => podBytesToKubectlJson(encodePod(t)).json));
    expect(list.undecodable.map((e) => e.message)).toEqual([
      `cannot decode pod ${bad.metadata!.namespace}/${bad.metadata!.name} (/pods items[1], uid ${bad.metadata!.uid}): does not fit the pod schema: expected an object (PodStatus), found string "Running" (in status)`,
      'cannot decode pod /pods items[4]: does not fit the pod schema: expected a pod object, found number 7',
    ]);
    expect(list.undecodable[0]!.offset).toBeUndefined();
  });

  it('leaves out, naming it, a pod with an int64 beyond its range written as a float (1e20)', () => {
    const good = readFileSync(testdata('podlist-api-server.json'), 'utf8');
    const body = good.replace(/"items"\s*:\s*\[/, '"items":[{"metadata":{"name":"a","namespace":"default","generation":1e20}},');
    const list = readRestPodList(Buffer.from(body), where, undefined);
    expect(list.pods).toHaveLength(2);
    expect(list.undecodable.map((e) => e.message)).toEqual([
      'cannot decode pod default/a (/pods items[0]): does not fit the pod schema: expected a 64-bit integer, found number 100000000000000000000 (out of int64 range) (in metadata.generation)',
    ]);
  });

  it('leaves out a pod that does not fit even when another pod needs the exact (beyond 2^53) reading', () => {
    const good = readFileSync(testdata('podlist-api-server.json'), 'utf8');
    const body = good.replace(/"items"\s*:\s*\[/, '"items":[{"metadata":{"name":7,"namespace":"default"}},');
    const list = readRestPodList(Buffer.from(body), where, undefined);
    expect(list.pods).toHaveLength(2);
    expect(list.pods.map((p) => p.pod.metadata)).toEqual(readRestPodList(Buffer.from(good), where, undefined).pods.map((p) => p.pod.metadata));
    expect(list.undecodable.map((e) => e.message)).toEqual(['cannot decode pod /pods items[0]: does not fit the pod schema: expected a string, found number 7 (in metadata.name)']);
  });
});
