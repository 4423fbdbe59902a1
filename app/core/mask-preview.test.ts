import { describe, expect, it } from 'vitest';
import { applyFieldMask, parseFieldMask } from '../mask/field-mask';
import { encodePod } from '../pod/encode';
import { podToKubectlJson, podToNdjsonLine } from '../pod/kubectl-json';
import type { PodTree, PodValue } from '../pod/pod-tree';
import { decodeStored, type StoredPod } from '../pod/stored-pod';
import { generatePods } from '../sim/pod-generator';
import { runInSlices } from '../util/time-slices';
import { maskPreviewSteps } from './mask-preview';

const trees = generatePods(60, { seed: 12, nodeName: 'preview-node', nowMs: Date.UTC(2026, 0, 2, 3, 4, 5) });
const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');
const values = (v: PodValue | undefined): number =>
  v === undefined ? 0 : v === null || typeof v !== 'object' ? 1 : Object.values(v).reduce<number>((n, x) => n + values(x), 0);

describe('maskPreviewSteps', () => {
  it('sizes every pod as an NDJSON export prints it, whole and masked, whether it is held as bytes, as bytes received through a mask, or as a tree', async () => {
    const mask = parseFieldMask('metadata.name,metadata.namespace,status.phase');
    const received = parseFieldMask('metadata,spec.containers,status');
    // What the core holds: a node's pods as their bytes (some received through a mask the kubelet ignored), a file's as trees.
    const stored: StoredPod[] = trees.map((pod, i) => (i % 3 === 0 ? { pod, unknownFields: [] } : i % 3 === 1 ? { bytes: encodePod(pod) } : { bytes: encodePod(pod), mask: received }));
    // Each pod as the app shows it whole: decoded, through the mask it was received with.
    const whole = (i: number): PodTree => decodeStored(stored[i]!).pod;

    // The user tries one mask after another over the same pods: each preview is exact.
    for (const text of ['metadata.name,metadata.namespace,status.phase', 'metadata,status.containerStatuses']) {
      const tried = parseFieldMask(text);
      const preview = await runInSlices(maskPreviewSteps(stored, tried, trees[4], ''), { budgetMs: 0 });
      expect(preview.pods).toBe(60);
      expect(preview.fullBytes).toBe(trees.reduce((n, _, i) => n + utf8(podToNdjsonLine(whole(i))) + 1, 0));
      expect(preview.maskedBytes).toBe(trees.reduce((n, _, i) => n + utf8(podToNdjsonLine(applyFieldMask(whole(i), tried), { mask: tried })) + 1, 0));
      expect(preview.fullFields).toBe(trees.reduce((n, _, i) => n + values(whole(i)), 0));
      expect(preview.maskedFields).toBe(trees.reduce((n, _, i) => n + values(applyFieldMask(whole(i), tried)), 0));
      expect(preview.maskedBytes).toBeLessThan(preview.fullBytes);
    }
    const preview = await runInSlices(maskPreviewSteps(stored, mask, trees[4], ''), { budgetMs: 0 });
    const meta = trees[4]!.metadata as Record<string, string>;
    expect(preview.sample).toEqual({ namespace: meta.namespace, name: meta.name, json: podToKubectlJson(applyFieldMask(trees[4]!, mask), { mask }) });
  });

  it('takes a step per pod, so the hub can pause between any two', () => {
    const steps = maskPreviewSteps(trees.slice(0, 3).map((pod) => ({ bytes: encodePod(pod) })), parseFieldMask('metadata.name'), undefined, '');
    expect([steps.next().value, steps.next().value, steps.next().value]).toEqual([1, 2, 3]);
    expect(steps.next()).toMatchObject({ done: true, value: { ok: true, pods: 3, sample: null } });
  });
});
