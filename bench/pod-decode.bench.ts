/**
 * Decode and decode-to-kubectl-JSON throughput on real pods, against plain protobufjs decoding of the
 * same bytes in the same process. Targets: kubectl JSON >= 20,000 pods/s and >= 0.5x the raw decode.
 */
import { decodePod } from '../app/pod/decode';
import { podToKubectlJson, streamPodBytesAsKubectl } from '../app/pod/kubectl-json';
import protobuf from 'protobufjs';
import { podProtoDescriptor } from '../app/schema/pod-proto.generated';
import { hasSharedPods, loadSharedPods } from '../app/testing/shared-fixtures';
import { benchCorpus } from './corpus';
import { runIsolated } from './isolated';
import { figure } from './figures';
import { compareRates, type Comparison } from './measure';

async function corpus(): Promise<Buffer[]> {
  return hasSharedPods ? loadSharedPods().map((f) => Buffer.from(f.pb)) : (await benchCorpus(200)).map((b) => Buffer.from(b));
}

async function against(candidate: (pods: Buffer[]) => void): Promise<Comparison> {
  const pods = await corpus();
  const PodType = protobuf.Root.fromJSON(podProtoDescriptor as protobuf.INamespace).lookupType('k8s.io.api.core.v1.Pod');
  return compareRates(
    () => candidate(pods),
    () => {
      for (const b of pods) PodType.decode(b);
    },
    pods.length,
  );
}

export const cases = {
  tree: () =>
    against((pods) => {
      for (const b of pods) decodePod(b);
    }),
  viaTree: () =>
    against((pods) => {
      for (const b of pods) podToKubectlJson(decodePod(b).pod);
    }),
  // As `nodescope export` does: streamed in chunks to a sink (here one that drops them).
  export: () => against((pods) => streamPodBytesAsKubectl(pods, () => {})),
};

export async function podDecodeBench(): Promise<boolean> {
  const pods = await corpus();
  const bytes = pods.reduce((n, b) => n + b.length, 0);
  console.log(`\npod decoding: ${pods.length} ${hasSharedPods ? 'real pods (shared fixtures)' : 'generated pods'}, ${Math.round(bytes / pods.length)} bytes each on average; each line in a fresh process`);
  const run = (name: keyof typeof cases) => runIsolated<Comparison>('pod-decode.bench.ts', name);
  const tree = run('tree');
  figure('protobufjs Pod.decode (baseline)', tree.baseline, 'pods/s');
  figure('decodePod (tree, unknown fields kept)', tree.candidate, 'pods/s', { baseline: tree.baseline, ratio: tree.ratio });
  const viaTree = run('viaTree');
  figure('bytes -> tree -> kubectl JSON text', viaTree.candidate, 'pods/s', { baseline: viaTree.baseline, ratio: viaTree.ratio });
  const json = run('export');
  const ok = figure('bytes -> kubectl JSON (export path)', json.candidate, 'pods/s', { baseline: json.baseline, ratio: json.ratio, target: { min: 20_000, minRatio: 0.5 } });
  return ok;
}
