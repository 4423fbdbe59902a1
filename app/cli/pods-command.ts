/** `nodescope pods NODE`: the node's pods as a kubectl-like table, or as a kubectl List (JSON or YAML) / NDJSON. */
import { EXIT } from './exit-codes';
import { noteMask, runNodeCommand, warnUnknownFields, writeStdout, type NodeCommandSpec } from './node-command';
import { podTable } from './pod-table';
import type { ListFormat } from './pod-output';
import { printPodList } from './print-pod-list';

export const summary = "list a node's pods from its kubelet (table, json, yaml, ndjson)";

const spec: NodeCommandSpec = {
  name: 'pods',
  usage: 'usage: nodescope pods NODE [options]\n\nLists every pod the kubelet on NODE knows, read from its Pods API over SSH.',
  outputs: ['table', 'json', 'yaml', 'ndjson'],
  async run({ client }, opts) {
    if (opts.output !== 'table') {
      const { mask, showManagedFields } = opts;
      return (await printPodList(client, { format: opts.output as ListFormat, showManagedFields, ...(mask ? { mask } : {}) })).code;
    }
    const list = await client.listPods();
    noteMask(list.maskHonoured);
    warnUnknownFields(list.pods);
    await writeStdout(`${podTable(list.pods.map((p) => p.pod))}\n`);
    return EXIT.ok;
  },
};

export const run = (argv: string[]) => runNodeCommand(spec, argv);
