/** `nodescope pods SOURCE`: the pods as a kubectl-like table, or as a kubectl List (JSON or YAML) / NDJSON. */
import { EXIT } from './exit-codes';
import { noteMask, reportUndecodable, runNodeCommand, warnUnknownFields, writeStdout, type NodeCommandSpec } from './node-command';
import { listPodsWithProgress } from './list-pods-with-progress';
import { podTable } from './pod-table';
import type { ListFormat } from './pod-output';
import { asOf } from './offline-source';
import { printPodList, printPodTrees } from './print-pod-list';

const spec: NodeCommandSpec = {
  name: 'pods',
  usage:
    'usage: nodescope pods SOURCE [options]\n\nLists every pod the kubelet on SOURCE knows, read from its Pods API over SSH (or unix:SOCKET),\nor the pods of a snapshot or recording file (--at TIME for a recording).',
  outputs: ['table', 'json', 'yaml', 'ndjson'],
  async run({ client }, opts) {
    if (opts.output !== 'table') {
      const { mask, showManagedFields } = opts;
      return (await printPodList(client, { format: opts.output as ListFormat, showManagedFields, ...(mask ? { mask } : {}) })).code;
    }
    const list = await listPodsWithProgress(client, opts.mask);
    noteMask(list.maskHonoured);
    warnUnknownFields(list.pods);
    await writeStdout(`${podTable(list.pods.map((p) => p.pod))}\n`);
    return reportUndecodable(list.undecodable);
  },
  async offline(source, opts) {
    const trees = source.pods.map((p) => p.pod);
    if (opts.output !== 'table') return (await printPodTrees(trees, { format: opts.output as ListFormat, showManagedFields: opts.showManagedFields })).code;
    await writeStdout(`${podTable(trees, asOf(source))}\n`);
    return EXIT.ok;
  },
};

export const run = (argv: string[]) => runNodeCommand(spec, argv);
