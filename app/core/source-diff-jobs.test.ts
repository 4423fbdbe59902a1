import { describe, expect, it } from 'vitest';
import { kubectlJsonText } from '../pod/kubectl-json-value';
import type { PodTree } from '../pod/pod-tree';
import { logLoopTurns } from '../testing/loop-turns';
import { SourceDiffJobs, type DiffSideInput, type SidePod } from './source-diff-jobs';

/** Pods whose every read is logged: a live node's pod decodes at each read, the work a slice is made of. */
function side(label: string, image: string, log: string[]): DiffSideInput {
  const pods: SidePod[] = Array.from({ length: 20 }, (_, i) => {
    const tree: PodTree = { metadata: { uid: `u${i}`, name: `p${i}`, namespace: 'shop' }, spec: { containers: [{ name: 'app', image }] }, status: { phase: 'Running' } };
    return {
      uid: `u${i}`,
      get tree() {
        log.push('read');
        return tree;
      },
    };
  });
  return { info: { nodeId: label, label, mask: '', podCount: pods.length }, pods };
}

describe('source comparisons', () => {
  it('several at once still give the event loop a turn between any two pod reads, to their last entry', async () => {
    const log: string[] = [];
    const jobs = new SourceDiffJobs({ budgetMs: 0 });
    const call = { signal: new AbortController().signal, caller: new AbortController().signal, progress: () => {} };
    const stop = logLoopTurns(log);
    const ids = await Promise.all([0, 1, 2].map((i) => jobs.run(side(`a${i}`, 'app:1', log), side(`b${i}`, 'app:2', log), { defaults: true }, call)));
    stop();
    // Every pod of every side printed, and every changed pod's row read: all in slices.
    expect(log.filter((e) => e === 'read')).toHaveLength(3 * (40 + 20));
    for (let i = 1; i < log.length; i++) if (log[i] === 'read') expect(log[i - 1], log.slice(Math.max(0, i - 8), i + 3).join(' ')).toBe('turn');
    for (const id of ids) expect(jobs.result(id, 0, 100).counts).toMatchObject({ changed: 20 });
  });
});

describe('drilling into a compared pair', () => {
  it('shows the JSON the comparison printed: the pair is neither decoded nor printed again', async () => {
    const log: string[] = [];
    const jobs = new SourceDiffJobs({ budgetMs: 0 });
    const left = side('a', 'app:1', log);
    const right = side('b', 'app:2', log);
    const id = await jobs.run(left, right, { defaults: true }, { signal: new AbortController().signal, caller: new AbortController().signal, progress: () => {} });
    const readsByTheComparison = log.length;
    const entry = jobs.result(id, 0, 1).entries[0]!;
    const pair = jobs.pods(id, entry.leftUid, entry.rightUid);
    expect(log).toHaveLength(readsByTheComparison);
    // Exactly what printing the pods now gives.
    const l = left.pods.find((p) => p.uid === entry.leftUid)!;
    const r = right.pods.find((p) => p.uid === entry.rightUid)!;
    expect(pair.left?.json).toBe(kubectlJsonText(l.tree));
    expect(pair.right?.json).toBe(kubectlJsonText(r.tree));
    expect(JSON.parse(pair.right!.json).spec.containers[0].image).toBe('app:2');
  });
});
