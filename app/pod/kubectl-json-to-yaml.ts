/**
 * kubectl's JSON text -> the YAML kubectl prints for it (sigs.k8s.io/yaml's JSONToYAML: JSON read by go-yaml v2,
 * then go-yaml's Marshal), with the strings kubectl could not have carried through. Browser-safe and free of
 * the pod decoder, so the renderer prints a pod's YAML from the JSON it already has with this same code.
 */
import { GoYamlEmitter, type StringProblem } from './go-yaml-emitter';
import { parseJsonValue, type JsonValue } from './json-value-parser';

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

/** JSON text as one item of a top-level block sequence (a pod under a List's `items:`), problems named from `path`. */
export function kubectlJsonToYamlItem(json: string, path: string): PrintedYaml {
  const yaml = emitter.sequenceItem(parseJsonValue(json), path);
  return { yaml, problems: takeProblems() };
}

/** What to tell the user about strings kubectl could not have printed as YAML, or undefined when there are none. */
export function yamlProblemsText(what: string, problems: StringProblem[]): string | undefined {
  if (problems.length === 0) return undefined;
  const u = (c: number) => `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
  const refused = problems.filter((p) => p.kind === 'refused');
  const altered = problems.filter((p) => p.kind === 'altered');
  const where = (ps: StringProblem[]) => `${ps.slice(0, 3).map((p) => `${p.path} (${u(p.codePoint)})`).join(', ')}${ps.length > 3 ? ` and ${ps.length - 3} more` : ''}`;
  const parts: string[] = [];
  if (refused.length) parts.push(`kubectl would refuse to print ${what} as YAML ("control characters are not allowed"): ${where(refused)}`);
  if (altered.length) parts.push(`kubectl would print ${what} with values that do not read back the same (U+0085 reads back as a space): ${where(altered)}`);
  return `${parts.join('; ')}; printed here as valid YAML that reads back to the same JSON`;
}
