/**
 * Which pods `pods`, `export` (and `get` by name) show, with kubectl's options: -n NAMESPACE, -A,
 * -l SELECTOR, --field-selector and --sort-by, and the app's filter language (--filter). A node's pods span
 * namespaces, so all namespaces are
 * the default (kubectl's -A); -n keeps one and, as in kubectl, drops the table's NAMESPACE column.
 */
import type { FieldMask } from '../mask/field-mask';
import { keepsAnyOf } from '../mask/mask-coverage';
import type { PodTree, PodValue } from '../pod/pod-tree';
import { matchesFilter, parseFilter, type ParsedFilter } from '../pod/view/filter-language';
import { maskBlindness } from '../pod/view/mask-blind-terms';
import { podRowFromTree } from '../pod/view/pod-row-from-tree';
import { objAt, strAt, stringMapAt } from '../pod/view/pod-tree-access';
import { fieldReads, matchesFields, parseFieldSelector, type FieldRequirement } from './field-selector';
import { evalJsonPath, maskPathOf, parseJsonPath, type PathStep } from './json-path';
import { matchesLabels, parseLabelSelector, type LabelRequirement } from './label-selector';
import { naturalCompare } from './natural-compare';
import { type ExtraOptions } from './node-options';
import { UsageError } from './usage-error';

export const SELECTION_OPTIONS = {
  namespace: { type: 'string', short: 'n' },
  'all-namespaces': { type: 'boolean', short: 'A', default: false },
  selector: { type: 'string', short: 'l' },
  'field-selector': { type: 'string' },
  'sort-by': { type: 'string' },
  filter: { type: 'string' },
} as const satisfies ExtraOptions;

export const SELECTION_HELP = `selection (as kubectl's; applies to every output format):
  -n, --namespace NS         only the pods in namespace NS (the table then has no NAMESPACE column)
  -A, --all-namespaces       the pods of every namespace (the default: a node's pods span namespaces)
  -l, --selector SELECTOR    label selector: key=value, key!=value, 'key in (a,b)', 'key notin (a,b)',
                             key, !key, joined by commas (all must hold)
  --field-selector SELECTOR  field=value or field!=value, joined by commas, on the fields kubectl allows
                             for pods: metadata.name, metadata.namespace, spec.nodeName, spec.restartPolicy,
                             spec.schedulerName, spec.serviceAccountName, spec.hostNetwork, status.phase,
                             status.podIP, status.nominatedNodeName
  --sort-by JSONPATH         order by this field, e.g. .metadata.creationTimestamp or
                             '{.status.containerStatuses[0].restartCount}' (default: a table by
                             NAMESPACE/NAME, as kubectl; JSON, YAML and NDJSON in the node's own order)
  --filter TERMS             the app's filter language, all terms must hold: text, ns:, phase: (kubectl's
                             STATUS too: phase:CrashLoopBackOff), node:, owner:DaemonSet, label:k=v,
                             is:notready|ready|static|deleting|restarted, -TERM negates, * wildcards`;

export interface PodSelection {
  namespace?: string;
  labels: LabelRequirement[];
  fields: FieldRequirement[];
  sortBy?: PathStep[];
  /** --filter; probe: terms never match here, as the Pods API has no probe results. */
  filter?: ParsedFilter;
}


/**
 * The selection the command line asks for. Under a --mask, a pod holds only the selected fields: a selection
 * on a field the mask leaves out would silently select nothing, so it is refused, naming the field to add.
 */
export function parseSelection(values: Record<string, unknown>, mask?: FieldMask): PodSelection {
  const namespace = values.namespace as string | undefined;
  if (namespace !== undefined && values['all-namespaces'] === true) throw new UsageError('give -n NAMESPACE or -A, not both');
  if (namespace === '') throw new UsageError('-n needs a namespace name; leave it out for every namespace');
  const selection: PodSelection = {
    labels: parseLabelSelector((values.selector as string | undefined) ?? ''),
    fields: parseFieldSelector((values['field-selector'] as string | undefined) ?? ''),
  };
  if (namespace !== undefined) selection.namespace = namespace;
  if (values['sort-by'] !== undefined) selection.sortBy = parseJsonPath(values['sort-by'] as string, '--sort-by');
  if (values.filter !== undefined) {
    const filter = parseFilter(values.filter as string);
    if (filter.errors.length > 0) throw new UsageError(`bad --filter: ${filter.errors[0]}`);
    if (filter.terms.some((t) => t.kind === 'probe')) throw new UsageError('bad --filter: probe: terms need the kubelet REST API\'s metrics, which the command line does not read');
    const blind = mask && maskBlindness(filter, mask.paths);
    if (blind) throw new UsageError(`--filter ${blind.terms.join(' ')} reads ${blind.paths.join(', ')}, which --mask leaves out: add ${blind.paths[0]} to the mask`);
    selection.filter = filter;
  }
  if (mask) {
    const needs: [string, readonly string[]][] = [];
    if (namespace !== undefined) needs.push(['-n', ['metadata.namespace']]);
    if (selection.labels.length) needs.push(['-l', ['metadata.labels']]);
    for (const f of selection.fields) needs.push([`--field-selector ${f.field}`, fieldReads(f)]);
    if (selection.sortBy) needs.push(['--sort-by', [maskPathOf(selection.sortBy)]]);
    for (const [option, paths] of needs) {
      if (!paths.some((p) => keepsAnyOf(mask.paths, p))) throw new UsageError(`${option} reads ${paths[0]}, which --mask leaves out: add ${paths[0]} to the mask`);
    }
  }
  return selection;
}

/**
 * A pod's place in the API server's list: its storage key, NAMESPACE/NAME, compared byte by byte (so
 * namespace a-b comes before a, '-' being below '/').
 */
const storageKey = (p: PodTree): string => `${strAt(objAt(p.metadata).namespace)}/${strAt(objAt(p.metadata).name)}`;
const byBytes = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** kubectl's --sort-by order: numbers by value, text in natural order (pod-9 before pod-10), absent first. */
function compareValues(a: PodValue | undefined, b: PodValue | undefined): number {
  if (a === undefined || b === undefined) return a === undefined ? (b === undefined ? 0 : -1) : 1;
  const num = (v: PodValue) => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : undefined);
  const na = num(a);
  const nb = num(b);
  if (na !== undefined && nb !== undefined) return na - nb;
  return naturalCompare(typeof a === 'string' ? a : JSON.stringify(a), typeof b === 'string' ? b : JSON.stringify(b));
}

/** The pods -n, -l and --field-selector keep, in the order given. */
function keptPods(pods: readonly PodTree[], s: PodSelection): PodTree[] {
  return pods.filter(
    (p) =>
      (s.namespace === undefined || strAt(objAt(p.metadata).namespace) === s.namespace) &&
      matchesLabels(s.labels, stringMapAt(objAt(p.metadata).labels)) &&
      matchesFields(s.fields, p) &&
      (s.filter === undefined || matchesFilter(s.filter, podRowFromTree(p))),
  );
}

/** The pods by --sort-by, else in the API server's order (a table's). */
function sortedPods(pods: readonly PodTree[], sortBy: PathStep[] | undefined): PodTree[] {
  const ordered = pods.map((pod) => ({ pod, key: storageKey(pod) })).sort((a, b) => byBytes(a.key, b.key)).map((k) => k.pod);
  if (!sortBy) return ordered;
  // Stable: pods with equal values stay in the API server's order.
  const keyed = ordered.map((pod) => ({ pod, value: evalJsonPath(pod, sortBy)[0] }));
  return keyed.sort((a, b) => compareValues(a.value, b.value)).map((k) => k.pod);
}

/** The pods the selection keeps, as a table lists them: by --sort-by, else by NAMESPACE/NAME. */
export const selectPods = (pods: readonly PodTree[], s: PodSelection): PodTree[] => sortedPods(keptPods(pods, s), s.sortBy);

/**
 * The selection for the list formats (JSON, YAML, NDJSON), which keep the node's own order unless --sort-by
 * is given; undefined when it keeps every pod in that order, so they can be streamed as they arrive rather
 * than decoded and held.
 */
export function selector(s: PodSelection): ((pods: PodTree[]) => PodTree[]) | undefined {
  const keepsAll = s.namespace === undefined && s.labels.length === 0 && s.fields.length === 0 && s.sortBy === undefined && s.filter === undefined;
  if (keepsAll) return undefined;
  return (pods) => (s.sortBy ? sortedPods(keptPods(pods, s), s.sortBy) : keptPods(pods, s));
}

/** kubectl's line for a table with no rows ("No resources found in shop namespace."). */
export const noPodsMessage = (s: PodSelection): string => (s.namespace !== undefined ? `No resources found in ${s.namespace} namespace.` : 'No resources found');
