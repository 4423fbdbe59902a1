/**
 * Pods -> the exact text `kubectl get pod -o yaml` prints. kubectl's YAML is its JSON run through
 * sigs.k8s.io/yaml (JSON read by go-yaml v2, then go-yaml's Marshal), so this prints kubectl's JSON
 * (kubectl-json.ts) and converts that text the same way (json-value-parser.ts, go-yaml-emitter.ts): any
 * kubectl JSON converts, not only pods.
 *
 * Where kubectl itself cannot carry a string through YAML (go-yaml's reader refuses DEL, C1 controls and
 * U+FFFE/U+FFFF; its YAML of U+0085, U+2028 and U+2029 reads back as line breaks), the YAML printed here keeps the value exactly
 * (escaped in double quotes, which reads back to the same JSON) and `problems` says where, so the caller
 * can say that kubectl would have refused or changed it. Browser-safe.
 */
import { PodDecodeError } from './decode';
import { GoYamlEmitter, type StringProblem } from './go-yaml-emitter';
import { podBytesToKubectlJson, podToKubectlJson, type KubectlJsonOptions } from './kubectl-json';
import { parseJsonValue, type JsonValue } from './json-value-parser';
import type { PodTree, UnknownField } from './pod-tree';

export type { StringProblem } from './go-yaml-emitter';

export interface PrintedYaml {
  yaml: string;
  /** Strings kubectl would refuse or alter; empty for almost every pod. */
  problems: StringProblem[];
}

const emitter = new GoYamlEmitter();

function takeProblems(): StringProblem[] {
  return emitter.problems.length ? emitter.problems.splice(0) : [];
}

/** Any JSON text as `kubectl -o yaml` (sigs.k8s.io/yaml JSONToYAML) prints it. */
export function kubectlJsonToYaml(json: string): PrintedYaml {
  return jsonValueToKubectlYaml(parseJsonValue(json));
}

export function jsonValueToKubectlYaml(value: JsonValue): PrintedYaml {
  const yaml = emitter.document(value);
  return { yaml, problems: takeProblems() };
}

/** One pod as `kubectl get pod NAME -o yaml` prints it. */
export function podToKubectlYaml(pod: PodTree, options: KubectlJsonOptions = {}): PrintedYaml {
  return kubectlJsonToYaml(podToKubectlJson(pod, options));
}

export interface PrintedYamlPod extends PrintedYaml {
  unknownFields: UnknownField[];
}

/** Pod bytes straight to kubectl's YAML (through the bytes-to-JSON fast path, no tree built). */
export function podBytesToKubectlYaml(bytes: Uint8Array, options: KubectlJsonOptions = {}, label = 'pod'): PrintedYamlPod {
  const { json, unknownFields } = podBytesToKubectlJson(bytes, options, label);
  return { ...kubectlJsonToYaml(json), unknownFields };
}

/** What kubectl prints around the items of a List (`kubectl get pods -o yaml`). */
const LIST_HEAD = 'apiVersion: v1\nitems:\n';
const LIST_EMPTY_HEAD = 'apiVersion: v1\nitems: []\n';
const LIST_TAIL = 'kind: List\nmetadata:\n  resourceVersion: ""\n';

export interface YamlListResult {
  problems: StringProblem[];
  unknownFields: { index: number; fields: UnknownField[] }[];
  /** Pods that could not be decoded; they are left out, the others are all there. */
  errors: PodDecodeError[];
}

/**
 * Streams pods as a kubectl `List` in YAML, one piece of text per pod, from JSON texts made lazily (so an
 * export of thousands of pods never holds its whole text). Each item is the pod's JSON converted as
 * kubectl converts the whole List: a pod under `items:` prints exactly as it does inside the List.
 */
function streamYamlList(jsons: Iterable<() => string>, sink: (text: string) => void, onError: (err: PodDecodeError, i: number) => void): StringProblem[] {
  const problems: StringProblem[] = [];
  let written = 0;
  let i = 0;
  for (const json of jsons) {
    let text: string;
    try {
      text = emitter.sequenceItem(parseJsonValue(json()), `items[${written}]`);
    } catch (err) {
      if (!(err instanceof PodDecodeError)) throw err;
      onError(err, i++);
      continue;
    }
    i++;
    problems.push(...takeProblems());
    sink(written++ === 0 ? LIST_HEAD + text : text);
  }
  sink(written === 0 ? LIST_EMPTY_HEAD + LIST_TAIL : LIST_TAIL);
  return problems;
}

/** Pod trees (masked, for instance) as a kubectl `List` in YAML, streamed one pod at a time. */
export function streamPodsAsKubectlYaml(pods: Iterable<PodTree>, sink: (text: string) => void, options: KubectlJsonOptions = {}): StringProblem[] {
  const jsons = (function* () {
    for (const pod of pods) yield () => podToKubectlJson(pod, options);
  })();
  return streamYamlList(jsons, sink, (err) => {
    throw err;
  });
}

/** Pod bytes as a kubectl `List` in YAML, streamed; a pod that cannot be decoded is reported and left out. */
export function streamPodBytesAsKubectlYaml(
  list: Iterable<Uint8Array>,
  sink: (text: string) => void,
  options: KubectlJsonOptions & { labelOf?: (i: number) => string } = {},
): YamlListResult {
  const labelOf = options.labelOf ?? ((i: number) => `pods[${i}]`);
  const unknownFields: YamlListResult['unknownFields'] = [];
  const errors: PodDecodeError[] = [];
  const jsons = (function* () {
    let i = 0;
    for (const bytes of list) {
      const index = i++;
      yield () => {
        const printed = podBytesToKubectlJson(bytes, options, labelOf(index));
        if (printed.unknownFields.length) unknownFields.push({ index, fields: printed.unknownFields });
        return printed.json;
      };
    }
  })();
  const problems = streamYamlList(jsons, sink, (err) => errors.push(err));
  return { problems, unknownFields, errors };
}

/** Several pod trees as one kubectl `List` in YAML. */
export function podsToKubectlListYaml(pods: Iterable<PodTree>, options: KubectlJsonOptions = {}): PrintedYaml {
  let yaml = '';
  const problems = streamPodsAsKubectlYaml(pods, (t) => (yaml += t), options);
  return { yaml, problems };
}

/**
 * One watch event as `kubectl get -w -o yaml --output-watch-events` prints it: the event
 * `{"type": ..., "object": ...}` as a YAML document (so `object:` comes first, in go-yaml's key order).
 * kubectl's YAML printer writes `---` before every document but the first: `separator` says whether to.
 */
export function watchEventToKubectlYaml(type: string, podJson: string, separator: boolean): PrintedYaml {
  const event = new Map<string, JsonValue>([
    ['type', type],
    ['object', parseJsonValue(podJson)],
  ]);
  const printed = jsonValueToKubectlYaml(event);
  return separator ? { yaml: `---\n${printed.yaml}`, problems: printed.problems } : printed;
}

/** The stderr line for strings kubectl could not have printed as YAML. */
export function yamlProblemsWarning(what: string, problems: StringProblem[]): string | undefined {
  if (problems.length === 0) return undefined;
  const u = (c: number) => `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
  const refused = problems.filter((p) => p.kind === 'refused');
  const altered = problems.filter((p) => p.kind === 'altered');
  const where = (ps: StringProblem[]) => `${ps.slice(0, 3).map((p) => `${p.path} (${u(p.codePoint)})`).join(', ')}${ps.length > 3 ? ` and ${ps.length - 3} more` : ''}`;
  const parts: string[] = [];
  if (refused.length) parts.push(`kubectl would refuse to print ${what} as YAML ("control characters are not allowed"): ${where(refused)}`);
  if (altered.length) parts.push(`kubectl would print ${what} with values that do not read back the same (line separators): ${where(altered)}`);
  return `nodescope: ${parts.join('; ')}; printed here as valid YAML that reads back to the same JSON`;
}
