/**
 * Decode and decode-to-kubectl-JSON throughput on real pods, against plain protobufjs decoding of the
 * same bytes in the same run. Targets: kubectl JSON >= 20,000 pods/s and >= 0.5x the raw decode.
 */
import { decodePod } from '../app/pod/decode';
import { podBytesListToKubectl, podToKubectlJson } from '../app/pod/kubectl-json';
import { podSchema } from '../app/schema/pod-schema';
import { hasSharedPods, loadSharedPods } from '../app/testing/shared-fixtures';
import { benchCorpus } from './corpus';
import { compareRates, fmt, report } from './measure';

export async function podDecodeBench(): Promise<boolean> {
  const corpus = hasSharedPods ? loadSharedPods().map((f) => Buffer.from(f.pb)) : (await benchCorpus(200)).map((b) => Buffer.from(b));
  const bytes = corpus.reduce((n, b) => n + b.length, 0);
  console.log(`\npod decoding: ${corpus.length} ${hasSharedPods ? 'real pods (shared fixtures)' : 'generated pods'}, ${Math.round(bytes / corpus.length)} bytes each on average`);
  const PodType = podSchema().root.lookupType('k8s.io.api.core.v1.Pod');
  const raw = () => {
    for (const b of corpus) PodType.decode(b);
  };
  const n = corpus.length;

  const tree = compareRates(() => {
    for (const b of corpus) decodePod(b);
  }, raw, n);
  report('baseline: protobufjs Pod.decode', `${fmt(tree.baseline)} pods/s`);
  report('decodePod (tree, unknown fields kept)', `${fmt(tree.candidate)} pods/s  ${tree.ratio.toFixed(2)}x baseline`);

  const viaTree = compareRates(() => {
    for (const b of corpus) podToKubectlJson(decodePod(b).pod);
  }, raw, n);
  report('bytes -> tree -> kubectl JSON text', `${fmt(viaTree.candidate)} pods/s  ${viaTree.ratio.toFixed(2)}x baseline`);

  const json = compareRates(() => podBytesListToKubectl(corpus), raw, n);
  const ok = json.candidate >= 20_000 && json.ratio >= 0.5;
  report('bytes -> kubectl JSON (export path)', `${fmt(json.candidate)} pods/s  ${json.ratio.toFixed(2)}x baseline (target >= 20,000/s and >= 0.50x)`, ok);
  return ok;
}
