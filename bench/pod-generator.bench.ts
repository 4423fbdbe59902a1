/**
 * The simulator's pod generator (every `nodescope sim` start and the demo node make thousands of pods),
 * against a structuredClone of the same pods in the same process: generating a pod should cost little more
 * than copying it. Target: >= 5,000 pods/s (a 30,000-pod simulator up in seconds) and >= 0.5x the copy (it measured 1.1x).
 */
import { generatePods } from '../app/sim/pod-generator';
import { figure } from './figures';
import { compareRates } from './measure';

export async function podGeneratorBench(): Promise<boolean> {
  const opts = { seed: 1234, nodeName: 'bench-node', nowMs: Date.UTC(2026, 5, 26, 10, 0, 0) };
  const pods = generatePods(500, opts);
  console.log('\npod generator: 500 pods a call, against structuredClone of the same pods');
  const r = compareRates(() => generatePods(500, opts), () => structuredClone(pods), 500);
  return figure('generatePods', r.candidate, 'pods/s', { baseline: r.baseline, ratio: r.ratio, target: { min: 5_000, minRatio: 0.5 } });
}
