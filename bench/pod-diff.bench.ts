/**
 * The diff engine on whole pod sets: two 10,000-pod snapshots that differ in 5% of their pods, against
 * jsondiffpatch (objectHash on names, as its docs suggest) on the same data in the same run. Target: at
 * least as fast. Also printed: how each reports an inserted pod condition (identity against position),
 * and the p99 of single-pod diffs.
 */
import * as jsondiffpatch from 'jsondiffpatch';
import { diffPod, diffPodSets, shownChanges } from '../app/diff/diff-pods';
import { podToKubectlJson } from '../app/pod/kubectl-json';
import { generatePods } from '../app/sim/pod-generator';
import { figure } from './figures';

type Json = Record<string, any>;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Two snapshots as kubectl JSON; every 20th pod changed the ways pods change between two looks. */
function snapshots(count: number): { left: Json[]; right: Json[]; conditionInserted: number[] } {
  const left = generatePods(count, { seed: 7, nodeName: 'worker-1', nowMs: Date.UTC(2026, 10, 1) }).map((p) => JSON.parse(podToKubectlJson(p)) as Json);
  const right = structuredClone(left);
  const conditionInserted: number[] = [];
  for (let i = 0; i < count; i += 20) {
    const pod = right[i]!;
    const c = pod.spec.containers[0];
    switch ((i / 20) % 4) {
      case 0:
        c.image = `${c.image}-patched`;
        break;
      case 1:
        c.env = [{ name: 'INSERTED', value: '1' }, ...(c.env ?? [])];
        break;
      case 2:
        pod.metadata.labels = { ...pod.metadata.labels, 'rollout.example/step': '2' };
        pod.metadata.resourceVersion = `${pod.metadata.resourceVersion}1`;
        break;
      case 3:
        pod.status.conditions = [{ type: 'example.com/Inserted', status: 'True' }, ...(pod.status.conditions ?? [])];
        conditionInserted.push(i);
        break;
    }
  }
  return { left, right, conditionInserted };
}

export async function podDiffBench(): Promise<boolean> {
  console.log('\npod-diff: two 10,000-pod snapshots, 5% of pods changed');
  const { left, right, conditionInserted } = snapshots(10_000);
  const jdp = jsondiffpatch.create({ objectHash: (o: object, i?: number) => (o as Json).metadata?.uid ?? (o as Json).name ?? `$$index:${i}` });
  const ours = () => diffPodSets(left, right, (p) => p);
  const theirs = () => jdp.diff(left, right);
  const ourTimes: number[] = [];
  const theirTimes: number[] = [];
  for (let round = 0; round < 9; round++) {
    // Alternate which side goes first, so garbage left by one does not always land on the other.
    const sides = round % 2 === 0 ? [ours, theirs] : [theirs, ours];
    for (const side of sides) {
      const t = performance.now();
      side();
      (side === ours ? ourTimes : theirTimes).push(performance.now() - t);
    }
  }
  const ok = figure('whole-set diff, 10,000 pods', median(ourTimes), 'ms', {
    baseline: median(theirTimes),
    target: { maxRatio: 1 },
    note: 'baseline: jsondiffpatch with objectHash',
  });

  const result = ours();
  const delta = theirs() as Json | undefined;
  const i = conditionInserted[0]!;
  const ourConditionChanges = shownChanges(result.pods.find((p) => p.left?.uid === left[i]!.metadata.uid)!).length;
  const theirConditionDelta = delta?.[String(i)]?.status?.conditions ?? {};
  const theirConditionChanges = Object.keys(theirConditionDelta).filter((k) => k !== '_t').length;
  figure('an inserted pod condition: changes shown', ourConditionChanges, 'changes', {
    baseline: theirConditionChanges,
    note: 'ours by type; baseline jsondiffpatch by position',
  });

  const singles: number[] = [];
  for (let k = 0; k < left.length; k += 20) {
    const t = performance.now();
    diffPod(left[k]!, right[k]!);
    singles.push(performance.now() - t);
  }
  singles.sort((a, b) => a - b);
  figure('single-pod diff p50', median(singles), 'ms', { note: `over ${singles.length} changed pods` });
  figure('single-pod diff p99', singles[Math.floor(singles.length * 0.99)]!, 'ms');
  return ok;
}
