/**
 * Pods to kubectl YAML against pods to kubectl JSON, both as export streams them (pod bytes in, text out to
 * a sink that drops it), interleaved in one process. Target: YAML within 1.5x of JSON's time per pod.
 */
import { streamPodBytesAsKubectl } from '../app/pod/kubectl-json';
import { streamPodBytesAsKubectlYaml } from '../app/pod/kubectl-yaml';
import { hasSharedPods, loadSharedPods } from '../app/testing/shared-fixtures';
import { benchCorpus } from './corpus';
import { runIsolated } from './isolated';
import { figure } from './figures';
import { compareRates, type Comparison } from './measure';

async function corpus(): Promise<Uint8Array[]> {
  return hasSharedPods ? loadSharedPods().map((f) => f.pb) : await benchCorpus(200);
}

export const cases = {
  yamlVsJson: async (): Promise<Comparison> => {
    const pods = await corpus();
    return compareRates(
      () => streamPodBytesAsKubectlYaml(pods, () => {}),
      () => streamPodBytesAsKubectl(pods, () => {}),
      pods.length,
    );
  },
};

/** The target: YAML takes at most 1.5x JSON's time per pod, i.e. runs at >= 1/1.5 of its rate. */
const TARGET = 1.5;

export async function kubectlYamlBench(): Promise<boolean> {
  const pods = await corpus();
  console.log(`\nkubectl YAML: ${pods.length} ${hasSharedPods ? 'real pods (shared fixtures)' : 'generated pods'}, export path, in a fresh process`);
  const r = runIsolated<Comparison>('kubectl-yaml.bench.ts', 'yamlVsJson');
  // A rate: YAML's pods/s over JSON's (median of interleaved pairs); within 1.5x of JSON's time is a ratio of at least 1/1.5.
  figure('kubectl YAML: bytes -> kubectl JSON', r.baseline, 'pods/s');
  return figure('kubectl YAML: bytes -> kubectl YAML', r.candidate, 'pods/s', { baseline: r.baseline, ratio: r.ratio, target: { minRatio: 1 / TARGET }, note: `${(1 / r.ratio).toFixed(2)}x JSON's time` });
}
