/** `nodescope pods NODE`: the node's pods as a kubectl-like table, or as kubectl List JSON / NDJSON. */
import { EXIT } from './exit-codes';
import { noteMask, runNodeCommand, warnUnknownFields, writeStdout, type NodeCommandSpec } from './node-command';
import { listPodsWithProgress } from './list-pods-with-progress';
import { podTable } from './pod-table';
import { printPodList } from './print-pod-list';

const spec: NodeCommandSpec = {
  name: 'pods',
  usage: 'usage: nodescope pods NODE [options]\n\nLists every pod the kubelet on NODE knows, read from its Pods API over SSH.',
  outputs: ['table', 'json', 'ndjson'],
  async run({ client }, opts) {
    if (opts.output !== 'table') {
      const { mask, showManagedFields } = opts;
      return (await printPodList(client, { ndjson: opts.output === 'ndjson', showManagedFields, ...(mask ? { mask } : {}) })).code;
    }
    const list = await listPodsWithProgress(client, opts.mask);
    noteMask(list.maskHonoured);
    warnUnknownFields(list.pods);
    await writeStdout(`${podTable(list.pods.map((p) => p.pod))}\n`);
    return EXIT.ok;
  },
};

export const run = (argv: string[]) => runNodeCommand(spec, argv);
