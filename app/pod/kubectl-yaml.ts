/**
 * Pods -> the exact text `kubectl get pod -o yaml` prints. kubectl's YAML is its JSON run through
 * sigs.k8s.io/yaml (JSON read by go-yaml v2, then go-yaml's Marshal), so this prints kubectl's JSON
 * (kubectl-json.ts) and converts that text the same way (kubectl-json-to-yaml.ts, which the renderer uses
 * on its own): any kubectl JSON converts, not only pods. Pod bytes take a faster way, the same rules
 * applied straight from the bytes (kubectl-yaml-bytes.ts), and this way only for what that one leaves to it.
 *
 * Where kubectl itself cannot carry a string through YAML (go-yaml's reader refuses DEL, C1 controls and
 * U+FFFE/U+FFFF; its YAML of U+0085 reads back as a space), the YAML printed here keeps the value exactly
 * (escaped in double quotes, which reads back to the same JSON) and `problems` says where, so the caller
 * can say that kubectl would have refused or changed it.
 */
import { decodePod, PodDecodeError } from './decode';
import { DecodeContext } from './decode-context';
import { GoYamlEmitter } from './go-yaml-emitter';
import { jsonValueToKubectlYaml, kubectlJsonToYaml, kubectlJsonToYamlItem, yamlProblemsText, type PrintedYaml, type StringProblem } from './kubectl-json-to-yaml';
import { podBytesToKubectlJson, podToKubectlJson, type KubectlJsonOptions } from './kubectl-json';
import { parseJsonValue, type JsonValue } from './json-value-parser';
import { createYamlBytesPrinter, YamlFastPathMiss, type PodYamlPrinter } from './kubectl-yaml-bytes';
import type { PodTree, UnknownField } from './pod-tree';
import { WireFormatError, WireReader } from './wire-reader';
import { runAtOnce } from '../util/time-slices';

export { jsonValueToKubectlYaml, kubectlJsonToYaml, yamlProblemsText, type PrintedYaml, type StringProblem } from './kubectl-json-to-yaml';

/** One pod as `kubectl get pod NAME -o yaml` prints it. */
export function podToKubectlYaml(pod: PodTree, options: KubectlJsonOptions = {}): PrintedYaml {
  return kubectlJsonToYaml(podToKubectlJson(pod, options));
}

export interface PrintedYamlPod extends PrintedYaml {
  unknownFields: UnknownField[];
}

/** Pod bytes straight to kubectl's YAML (through the bytes-to-JSON fast path, no tree built). */
export function podBytesToKubectlYaml(bytes: Uint8Array, options: KubectlJsonOptions = {}, label = 'pod'): PrintedYamlPod {
  const fast = fastPodYaml(bytes, 0, options, label);
  if (fast) return { yaml: `${fast.text}\n`, problems: [], unknownFields: fast.unknownFields };
  const { json, unknownFields } = podBytesToKubectlJson(bytes, options, label);
  return { ...kubectlJsonToYaml(json), unknownFields };
}

const fastEmitter = new GoYamlEmitter();
let bytesPrinter: PodYamlPrinter | undefined;

/**
 * The pod's YAML straight from its bytes (kubectl-yaml-bytes.ts), its mapping's keys at `indent`; undefined
 * when that path cannot print it exactly (bad bytes, a string kubectl could not carry), and the JSON path,
 * which reports those, must.
 */
function fastPodYaml(bytes: Uint8Array, indent: number, options: KubectlJsonOptions, label: string): { text: string; unknownFields: UnknownField[] } | undefined {
  const printer = (bytesPrinter ??= createYamlBytesPrinter(fastEmitter));
  const reader = new WireReader(bytes);
  const context = new DecodeContext(reader);
  let text: string;
  try {
    text = printer(reader, bytes.length, indent, options.showManagedFields !== true, context);
  } catch (err) {
    if (err instanceof YamlFastPathMiss || err instanceof WireFormatError) return undefined;
    throw err;
  }
  // Unknown fields are rare (a newer kubelet); the tree decoder reports them with their paths.
  return { text, unknownFields: context.unknownFields.length ? decodePod(bytes, label).unknownFields : [] };
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
 * Streams pods as a kubectl `List` in YAML, one piece of text per pod, printed lazily (so an export of
 * thousands of pods never holds its whole text). Each item prints as the pod does inside the List that
 * kubectl converts whole; `item(path)` prints one, naming its problems from `path`.
 */
function streamYamlList(items: Iterable<(path: string) => PrintedYaml>, sink: (text: string) => void, onError: (err: PodDecodeError, i: number) => void): StringProblem[] {
  return runAtOnce(yamlListSteps(items, sink, onError));
}

/** streamYamlList in steps: yields how many items it has printed after each one (an export in time slices). */
function* yamlListSteps(items: Iterable<(path: string) => PrintedYaml>, sink: (text: string) => void, onError: (err: PodDecodeError, i: number) => void): Generator<number, StringProblem[]> {
  const problems: StringProblem[] = [];
  let written = 0;
  let i = 0;
  for (const item of items) {
    let printed: PrintedYaml;
    try {
      printed = item(`items[${written}]`);
    } catch (err) {
      if (!(err instanceof PodDecodeError)) throw err;
      onError(err, i++);
      continue;
    }
    i++;
    problems.push(...printed.problems);
    sink(written++ === 0 ? LIST_HEAD + printed.yaml : printed.yaml);
    yield written;
  }
  sink(written === 0 ? LIST_EMPTY_HEAD + LIST_TAIL : LIST_TAIL);
  return problems;
}

/** Pod trees (masked, for instance) as a kubectl `List` in YAML, streamed one pod at a time. */
export function streamPodsAsKubectlYaml(pods: Iterable<PodTree>, sink: (text: string) => void, options: KubectlJsonOptions = {}): StringProblem[] {
  return runAtOnce(podsAsKubectlYamlSteps(pods, sink, options));
}

/** streamPodsAsKubectlYaml in steps: yields how many pods it has printed after each one (an export in time slices). */
export function podsAsKubectlYamlSteps(pods: Iterable<PodTree>, sink: (text: string) => void, options: KubectlJsonOptions = {}): Generator<number, StringProblem[]> {
  const items = (function* () {
    for (const pod of pods) yield (path: string) => kubectlJsonToYamlItem(podToKubectlJson(pod, options), path);
  })();
  return yamlListSteps(items, sink, (err) => {
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
  const items = (function* () {
    let i = 0;
    for (const bytes of list) {
      const index = i++;
      const note = (fields: UnknownField[]) => fields.length && unknownFields.push({ index, fields });
      yield (path: string): PrintedYaml => {
        const fast = fastPodYaml(bytes, 2, options, labelOf(index));
        if (fast) {
          note(fast.unknownFields);
          return { yaml: `- ${fast.text}\n`, problems: [] };
        }
        const printed = podBytesToKubectlJson(bytes, options, labelOf(index));
        note(printed.unknownFields);
        return kubectlJsonToYamlItem(printed.json, path);
      };
    }
  })();
  const problems = streamYamlList(items, sink, (err) => errors.push(err));
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
  const text = yamlProblemsText(what, problems);
  return text && `nodescope: ${text}`;
}
