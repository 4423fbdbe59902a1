/**
 * History memory: 1,000 versions of a typical pod, each arriving as the watch delivers it (freshly
 * decoded, so no two versions share anything), kept by PodHistory. Baseline in the same process: the
 * same 1,000 decoded versions kept as they arrived. Also checks the history's own byte estimate (what
 * its budget counts) against the heap. Target: history <= 0.25x the baseline's heap.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { DEFAULT_HISTORY_LIMITS, PodHistory } from '../app/core/pod-history';
import { encodePod } from '../app/pod/encode';
import { decodePod } from '../app/pod/decode';
import type { DecodedPod, PodObject, PodTree } from '../app/pod/pod-tree';
import { flapReadiness, restartContainer } from '../app/sim/pod-changes';
import { generatePods } from '../app/sim/pod-generator';
import { Prng } from '../app/sim/prng';
import { runIsolated } from './isolated';
import { figure } from './figures';
import { fmt } from './measure';

const VERSIONS = 1000;
const NOW = Date.UTC(2026, 5, 26, 10, 0, 0);

interface Result {
  podBytes: number;
  baselineHeap: number;
  historyHeap: number;
  historyEstimate: number;
}

/** A running pod with containers, changed the way a busy node changes it: readiness flaps and restarts. */
function versions(): Uint8Array[] {
  const pods = generatePods(200, { seed: 7, nodeName: 'bench-node', nowMs: NOW });
  let pod: PodTree = pods.find((p) => (p.status as PodObject).phase === 'Running' && ((p.spec as PodObject).containers as unknown[]).length >= 2)!;
  const rng = new Prng(11);
  const out: Uint8Array[] = [encodePod(pod)];
  for (let i = 1; i < VERSIONS; i++) {
    const t = NOW + i * 1000;
    pod = (i % 3 === 0 ? restartContainer(pod, rng, t) : flapReadiness(pod, rng, t)) ?? flapReadiness(pod, rng, t) ?? pod;
    out.push(encodePod(pod));
  }
  return out;
}

function heapAfter<T>(gc: () => void, build: () => T): { kept: T; bytes: number } {
  gc();
  const before = process.memoryUsage().heapUsed;
  const kept = build();
  gc();
  return { kept, bytes: process.memoryUsage().heapUsed - before };
}

export const cases = {
  memory: async (): Promise<Result> => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const bytes = versions();
    const baseline = heapAfter(gc, () => bytes.map((b) => decodePod(b)));
    const baselineHeap = baseline.bytes;
    baseline.kept.length = 0;
    const history = heapAfter(gc, () => {
      const h = new PodHistory({ ...DEFAULT_HISTORY_LIMITS, perPod: VERSIONS }, () => NOW);
      bytes.forEach((b, i) => h.record('bench-pod', i === 0 ? 'LISTED' : 'MODIFIED', decodePod(b) as DecodedPod, NOW + i * 1000));
      return h;
    });
    if (history.kept.versions('bench-pod').length !== VERSIONS) throw new Error('the history did not keep every version');
    return { podBytes: bytes[0]!.length, baselineHeap, historyHeap: history.bytes, historyEstimate: history.kept.bytes };
  },
};

export async function podHistoryBench(): Promise<boolean> {
  const r = runIsolated<Result>('pod-history.bench.ts', 'memory');
  console.log(`\npod history: ${VERSIONS} versions of one pod (${fmt(r.podBytes)} bytes as protobuf), in a fresh process`);
  figure('pod history: every version as decoded', r.baselineHeap, 'bytes');
  const ok = figure('pod history: PodHistory (unchanged parts shared)', r.historyHeap, 'bytes', { baseline: r.baselineHeap, target: { maxRatio: 0.25 } });
  figure('pod history: its budget estimate', r.historyEstimate, 'bytes', { baseline: r.historyHeap, note: 'baseline: the measured heap' });
  return ok;
}
