/**
 * YAML pod files: `kubectl get pods -o yaml`, `kubectl get pod NAME -o yaml`, Nodescope's own YAML exports and
 * `watch -o yaml` output. YAML is read whole (its reader has no streaming form), within the file size limit;
 * each pod then goes through the same checks as a JSON one (types by the schema, exact int64).
 */
import { KubectlYamlError, podTreesFromKubectlYaml } from '../pod/kubectl-yaml-reader';
import type { DecodedPod } from '../pod/pod-tree';
import { podFileError } from './json-pod-reader';
import { PodJsonError, podFromJson } from './pod-from-json';

export interface YamlPods {
  pods: DecodedPod[];
  notes: string[];
}

export function readPodYaml(bytes: Uint8Array, file: string): YamlPods {
  let trees;
  try {
    trees = podTreesFromKubectlYaml(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (err) {
    // An error at a line is about one value there (a tag, say): that pod is to fix, or to export again.
    if (err instanceof KubectlYamlError) {
      throw podFileError(file, err.line === undefined ? 'not-pods' : 'bad-value', err.message, { expected: 'kubectl YAML of a Pod or a List of pods', line: err.line }, err);
    }
    if (err instanceof TypeError) throw podFileError(file, 'not-json', 'the file is not UTF-8 text', { expected: 'kubectl YAML' }, err);
    throw err;
  }
  if (trees.length === 0) throw podFileError(file, 'not-pods', 'the YAML holds no pods', { expected: 'a Pod or a List of pods' });
  const unknown = new Set<string>();
  const pods = trees.map((tree, i): DecodedPod => {
    let converted;
    try {
      converted = podFromJson(tree, { exact: true });
    } catch (err) {
      if (err instanceof PodJsonError) throw podFileError(file, 'bad-value', `pod ${i}: ${err.message}`, { expected: 'a pod as kubectl prints it' }, err);
      throw err;
    }
    for (const k of converted.unknownKeys) unknown.add(k);
    // Every pod is kept, with a uid or not, as from JSON (json-pod-reader.ts).
    return { pod: converted.pod, unknownFields: [] };
  });
  const notes = unknown.size > 0 ? [`fields this Nodescope does not know were kept but are not printed: ${[...unknown].slice(0, 10).join(', ')}`] : [];
  return { pods, notes };
}
