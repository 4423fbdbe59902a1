/**
 * `nodescope pods SOURCE`: the pods as kubectl's table (or -o wide, -o custom-columns), or as a kubectl List
 * (JSON or YAML) / NDJSON, after kubectl's selection options (pod-selection.ts).
 * With several sources, all their pods at once (fleet-pods-output.ts says how each format names the source).
 */
import type { PodTree } from '../pod/pod-tree';
import { reportFailure } from './cli-failure';
import { EXIT } from './exit-codes';
import { failureCode, FLEET_HELP, FLEET_OPTIONS, namesSeveralSources, readSources, sourceIds } from './fleet-sources';
import { printFleetPods } from './fleet-pods-output';
import { noteMask, reportUndecodable, runNodeCommand, warnUnknownFields, writeStdout, type NodeCommandSpec } from './node-command';
import { parseNodeArgs, type NodeCommandOptions } from './node-options';
import { listPodsWithProgress } from './list-pods-with-progress';
import type { ListFormat } from './pod-output';
import { asOf } from './offline-source';
import { noPodsMessage, parseSelection, selectPods, selector, SELECTION_HELP, SELECTION_OPTIONS, type PodSelection } from './pod-selection';
import { printPodList, printPodTrees } from './print-pod-list';
import { checkTableOutput, isTableOutput, TABLE_HELP, TABLE_OUTPUTS, tableText } from './table-output';
import { printError } from './terminal-text';

type Options = NodeCommandOptions & { extraValues: Record<string, unknown> };

const OPTIONS = { ...FLEET_OPTIONS, ...SELECTION_OPTIONS };

const spec: NodeCommandSpec = {
  name: 'pods',
  usage:
    'usage: nodescope pods SOURCE [SOURCE...] [options]\n\nLists the pods the kubelet on SOURCE knows (all, or those -n/-l/--field-selector keep), read from\nits Pods API over SSH (or unix:SOCKET), or the pods of a snapshot or recording file (--at TIME for a recording).\nWith several sources: all their pods, with a NODE column (table), or each pod with its source\n(ndjson: {"source","pod"} lines; json: a PodListsBySource of kubectl Lists; yaml: a List per source).\nNodes are opened concurrently; those behind one jump host share one login there.',
  outputs: [...TABLE_OUTPUTS, 'json', 'yaml', 'ndjson'],
  extra: OPTIONS,
  extraHelp: [SELECTION_HELP, TABLE_HELP, FLEET_HELP].join('\n'),
  check(opts) {
    parseSelection(opts.extraValues, opts.mask);
    checkTableOutput(opts.output);
  },
  async run({ client }, opts) {
    const selection = parseSelection(opts.extraValues, opts.mask);
    if (!isTableOutput(opts.output)) {
      const { mask, showManagedFields } = opts;
      const select = selector(selection);
      return (await printPodList(client, { format: opts.output as ListFormat, showManagedFields, ...(mask ? { mask } : {}), ...(select ? { select } : {}) })).code;
    }
    const list = await listPodsWithProgress(client, opts.mask);
    noteMask(list.maskHonoured);
    warnUnknownFields(list.pods);
    await printTable(list.pods.map((p) => p.pod), opts, selection, Date.now());
    return reportUndecodable(list.undecodable);
  },
  async offline(source, opts) {
    const selection = parseSelection(opts.extraValues, opts.mask);
    const trees = source.pods.map((p) => p.pod);
    if (!isTableOutput(opts.output)) {
      const { mask, showManagedFields } = opts;
      const select = selector(selection);
      const chosen = select ? select(trees) : trees;
      return (await printPodTrees(chosen, { format: opts.output as ListFormat, showManagedFields, ...(mask ? { mask } : {}) })).code;
    }
    await printTable(trees, opts, selection, asOf(source));
    return EXIT.ok;
  },
};

/** The selected pods as a table; none is kubectl's "No resources found" on stderr, not a lone header. */
async function printTable(pods: PodTree[], opts: Options, selection: PodSelection, now: number): Promise<void> {
  const chosen = selectPods(pods, selection);
  if (chosen.length === 0) return printError(noPodsMessage(selection));
  const namespaceColumn = selection.namespace === undefined;
  await writeStdout(`${tableText(chosen, opts.output, { now, namespaceColumn, ...(opts.mask ? { mask: opts.mask } : {}) })}\n`);
}

async function runFleet(argv: string[]): Promise<number> {
  try {
    const opts = await parseNodeArgs(argv, spec.outputs, OPTIONS);
    const selection = parseSelection(opts.extraValues, opts.mask);
    checkTableOutput(opts.output);
    const results = await readSources(sourceIds(opts, 1, 'pods'), opts, 'pods');
    // A table is always in namespace/name order; a list keeps each node's own order unless asked otherwise.
    const select = isTableOutput(opts.output) ? (pods: PodTree[]) => selectPods(pods, selection) : selector(selection);
    const selected = select ? results.map((r) => ('pods' in r ? { ...r, pods: select(r.pods) } : r)) : results;
    await printFleetPods(selected, opts.output, opts.showManagedFields, { namespaceColumn: selection.namespace === undefined, ...(opts.mask ? { mask: opts.mask } : {}) });
    return failureCode(results);
  } catch (err) {
    return reportFailure('pods', err, true);
  }
}

/** One source: the single-node command as before; several: runFleet. */
export async function run(argv: string[]): Promise<number> {
  let several = false;
  try {
    const opts = await parseNodeArgs(argv, spec.outputs, OPTIONS);
    several = !opts.help && namesSeveralSources(opts);
  } catch {
    // runNodeCommand reports the bad command line.
  }
  return several ? runFleet(argv) : runNodeCommand(spec, argv);
}
