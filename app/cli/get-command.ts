/** `nodescope get NODE UID`: one pod, as kubectl get pod -o json prints it. */
import { podToKubectlJson, podToNdjsonLine } from '../pod/kubectl-json';
import { EXIT } from './exit-codes';
import { noteMask, runNodeCommand, warnUnknownFields, writeStdout, type NodeCommandSpec } from './node-command';
import { CliUsageError } from './node-options';
import { podTable } from './pod-table';

export const summary = 'print one pod by UID (json, ndjson, table)';

const spec: NodeCommandSpec = {
  name: 'get',
  args: 1,
  usage: "usage: nodescope get NODE UID [options]\n\nPrints the pod with that UID from NODE's kubelet (find UIDs with nodescope pods NODE -o json).",
  outputs: ['json', 'ndjson', 'table'],
  async run({ client }, opts) {
    const [uid, ...more] = opts.args;
    if (!uid || more.length) throw new CliUsageError('give exactly one pod UID after the node');
    const { pod, maskHonoured } = await client.getPod(uid);
    noteMask(maskHonoured);
    warnUnknownFields([pod]);
    const options = { showManagedFields: opts.showManagedFields, ...(opts.mask ? { mask: opts.mask } : {}) };
    const text =
      opts.output === 'table' ? `${podTable([pod.pod])}\n` : opts.output === 'ndjson' ? `${podToNdjsonLine(pod.pod, options)}\n` : podToKubectlJson(pod.pod, options);
    await writeStdout(text);
    return EXIT.ok;
  },
};

export const run = (argv: string[]) => runNodeCommand(spec, argv);
