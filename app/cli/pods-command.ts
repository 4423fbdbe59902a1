/**
 * `nodescope pods SOURCE`: the pods as a kubectl-like table, or as a kubectl List (JSON or YAML) / NDJSON.
 * With several sources, all their pods at once (fleet-pods-output.ts says how each format names the source).
 */
import { reportFailure } from './cli-failure';
import { EXIT } from './exit-codes';
import { failureCode, FLEET_HELP, FLEET_OPTIONS, namesSeveralSources, readSources, sourceIds } from './fleet-sources';
import { printFleetPods } from './fleet-pods-output';
import { exitQuietlyOnEpipe, helpText, noteMask, reportUndecodable, runNodeCommand, warnUnknownFields, writeStdout, type NodeCommandSpec } from './node-command';
import { parseNodeArgs } from './node-options';
import { listPodsWithProgress } from './list-pods-with-progress';
import { podTable } from './pod-table';
import type { ListFormat } from './pod-output';
import { asOf } from './offline-source';
import { printPodList, printPodTrees } from './print-pod-list';

const spec: NodeCommandSpec = {
  name: 'pods',
  usage:
    'usage: nodescope pods SOURCE [SOURCE...] [options]\n\nLists every pod the kubelet on SOURCE knows, read from its Pods API over SSH (or unix:SOCKET),\nor the pods of a snapshot or recording file (--at TIME for a recording).\nWith several sources: all their pods, with a NODE column (table), or each pod with its source\n(ndjson: {"source","pod"} lines; json: a PodListsBySource of kubectl Lists; yaml: a List per source).\nNodes are opened concurrently; those behind one jump host share one login there.',
  outputs: ['table', 'json', 'yaml', 'ndjson'],
  extra: FLEET_OPTIONS,
  extraHelp: FLEET_HELP,
  async run({ client }, opts) {
    if (opts.output !== 'table') {
      const { mask, showManagedFields } = opts;
      return (await printPodList(client, { format: opts.output as ListFormat, showManagedFields, ...(mask ? { mask } : {}) })).code;
    }
    const list = await listPodsWithProgress(client, opts.mask);
    noteMask(list.maskHonoured);
    warnUnknownFields(list.pods);
    await writeStdout(`${podTable(list.pods.map((p) => p.pod), Date.now(), opts.mask)}\n`);
    return reportUndecodable(list.undecodable);
  },
  async offline(source, opts) {
    const trees = source.pods.map((p) => p.pod);
    if (opts.output !== 'table') {
      const { mask, showManagedFields } = opts;
      return (await printPodTrees(trees, { format: opts.output as ListFormat, showManagedFields, ...(mask ? { mask } : {}) })).code;
    }
    await writeStdout(`${podTable(trees, asOf(source), opts.mask)}\n`);
    return EXIT.ok;
  },
};

async function runFleet(argv: string[]): Promise<number> {
  try {
    const opts = await parseNodeArgs(argv, spec.outputs, FLEET_OPTIONS);
    exitQuietlyOnEpipe();
    const results = await readSources(sourceIds(opts, 1, 'pods'), opts, 'pods');
    await printFleetPods(results, opts.output as ListFormat | 'table', opts.showManagedFields);
    return failureCode(results);
  } catch (err) {
    return reportFailure('pods', err, helpText(spec));
  }
}

/** One source: the single-node command as before; several: runFleet. */
export async function run(argv: string[]): Promise<number> {
  let several = false;
  try {
    const opts = await parseNodeArgs(argv, spec.outputs, FLEET_OPTIONS);
    several = !opts.help && namesSeveralSources(opts);
  } catch {
    // runNodeCommand reports the bad command line.
  }
  return several ? runFleet(argv) : runNodeCommand(spec, argv);
}
