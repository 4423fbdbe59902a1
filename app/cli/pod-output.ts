/**
 * The -o formats that print pods as kubectl does, in one place for every command: kubectl JSON, NDJSON
 * (one compact pod per line) and kubectl YAML, with the warning when kubectl could not have printed a
 * value as YAML.
 */
import { podToKubectlJson, podToNdjsonLine, type KubectlJsonOptions } from '../pod/kubectl-json';
import { podToKubectlYaml, yamlProblemsWarning, type StringProblem } from '../pod/kubectl-yaml';
import type { PodTree } from '../pod/pod-tree';
import { printError } from './terminal-text';

export type ListFormat = 'json' | 'ndjson' | 'yaml';

/** Says on stderr where kubectl would have refused or changed a value (rare: control characters). */
export function warnYamlProblems(what: string, problems: StringProblem[]): void {
  const warning = yamlProblemsWarning(what, problems);
  if (warning) printError(warning);
}

/** One pod's text in `format`; `label` names it in warnings. */
export function podText(pod: PodTree, format: ListFormat, options: KubectlJsonOptions, label: string): string {
  if (format === 'ndjson') return `${podToNdjsonLine(pod, options)}\n`;
  if (format === 'json') return podToKubectlJson(pod, options);
  const { yaml, problems } = podToKubectlYaml(pod, options);
  warnYamlProblems(`pod ${label}`, problems);
  return yaml;
}
