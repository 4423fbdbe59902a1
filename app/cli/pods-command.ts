/** `nodescope pods NODE`: the node's pods as a kubectl-like table, or as kubectl List JSON / NDJSON. */
import { podBytesListToKubectl, podsToKubectlListJson, podToNdjsonLine } from '../pod/kubectl-json';
import { EXIT } from './exit-codes';
import { noteMask, runNodeCommand, warnUnknownFields, writeStdout, type NodeCommandSpec } from './node-command';
import { podTable } from './pod-table';

export const summary = "list a node's pods from its kubelet (table, json, ndjson)";

const spec: NodeCommandSpec = {
  name: 'pods',
  usage: 'usage: nodescope pods NODE [options]\n\nLists every pod the kubelet on NODE knows, read from its Pods API over SSH.',
  outputs: ['table', 'json', 'ndjson'],
  async run({ client }, opts) {
    const list = await client.listPods();
    noteMask(list.maskHonoured);
    warnUnknownFields(list.pods);
    const trees = list.pods.map((p) => p.pod);
    if (opts.output === 'table') await writeStdout(`${podTable(trees)}\n`);
    else if (opts.mask) {
      const options = { showManagedFields: opts.showManagedFields };
      await writeStdout(opts.output === 'json' ? podsToKubectlListJson(trees, options) : trees.map((t) => `${podToNdjsonLine(t, options)}\n`).join(''));
    } else {
      // Unmasked pods go straight from their bytes to JSON, without the trees.
      const printed = podBytesListToKubectl(list.pods.map((p) => p.bytes), { ndjson: opts.output === 'ndjson', showManagedFields: opts.showManagedFields });
      await writeStdout(printed.bytes);
    }
    return EXIT.ok;
  },
};

export const run = (argv: string[]) => runNodeCommand(spec, argv);
