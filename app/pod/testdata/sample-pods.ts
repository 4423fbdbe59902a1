/**
 * Pods and masks to check a partial read of pods against the whole decode (decode-fields, selected-bytes):
 * generated pods of every state and kind the simulator makes, the shared real pods when present, a handmade
 * pod with unknown fields; masks of a few random paths anywhere in the schema, the same every run.
 */
import { parseFieldMask, type FieldMask } from '../../mask/field-mask';
import { maskTree, walkMaskTree } from '../../mask/mask-tree';
import { Prng } from '../../sim/prng';
import { generatePods } from '../../sim/pod-generator';
import { loadSharedPods } from '../../testing/shared-fixtures';
import { encodePod } from '../encode';
import { str, tag, webPodBytes } from './handmade-pods';

export const samplePods: { name: string; bytes: Uint8Array }[] = [
  ...generatePods(120, { seed: 11, nodeName: 'node-a', nowMs: Date.UTC(2026, 5, 26, 10) }).map((pod, i) => ({ name: `generated[${i}]`, bytes: encodePod(pod) })),
  ...loadSharedPods().map((f) => ({ name: f.name, bytes: f.pb })),
  { name: 'handmade web-0 with unknown fields', bytes: webPodBytes({ specExtra: (s) => tag(s, 999, 0).uint32(300), containerExtra: (c) => str(c, 1000, 'hello') }) },
];

export function randomMasks(count: number): FieldMask[] {
  const paths = [...walkMaskTree(maskTree())].map((n) => n.path);
  const rng = new Prng(26);
  return Array.from({ length: count }, () => parseFieldMask(Array.from({ length: rng.int(1, 6) }, () => rng.pick(paths)).join(',')));
}
