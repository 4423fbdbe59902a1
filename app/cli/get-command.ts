/** `nodescope get SOURCE UID`: one pod, as kubectl get pod -o json (or -o yaml) prints it, from a node or a pod file. */
import type { PodTree } from '../pod/pod-tree';
import { EXIT } from './exit-codes';
import { noteMask, runNodeCommand, warnUnknownFields, writeStdout, type NodeCommandSpec } from './node-command';
import { CliUsageError, type NodeCommandOptions } from './node-options';
import { asOf } from './offline-source';
import { firstPodOfEachUid } from '../pod/first-pod-of-uid';
import { printError } from './terminal-text';
import { podText as formattedPod, type ListFormat } from './pod-output';
import { podTable } from './pod-table';

const spec: NodeCommandSpec = {
  name: 'get',
  args: 1,
  usage:
    "usage: nodescope get SOURCE UID [options]\n\nPrints the pod with that UID from SOURCE's kubelet, or from a snapshot or recording file\n(find UIDs with nodescope pods SOURCE -o json).",
  outputs: ['json', 'yaml', 'ndjson', 'table'],
  async run({ client }, opts) {
    const { pod, maskHonoured } = await client.getPod(oneUid(opts.args));
    noteMask(maskHonoured);
    warnUnknownFields([pod]);
    await writeStdout(podText(pod.pod, opts, `${pod.namespace}/${pod.name}`));
    return EXIT.ok;
  },
  async offline(source, opts) {
    const uid = oneUid(opts.args);
    const at = source.uids.indexOf(uid);
    const found = source.pods[at];
    if (!found) throw new CliUsageError(`no pod with UID ${uid} in ${source.file.path}${source.at !== undefined ? ' at that time' : ''}; list them with nodescope pods ${source.file.path} -o json`);
    // Pods are followed by uid: the first of it is the one, and any other with it is named as not shown.
    const sharing = source.uids.flatMap((u, i) => (u === uid ? [i] : []));
    if (sharing.length > 1) {
      const { leftOut } = firstPodOfEachUid(sharing, (i) => source.identities[i]!);
      for (const why of leftOut) printError(`nodescope: ${why}`);
    }
    await writeStdout(podText(found.pod, opts, uid, asOf(source)));
    return EXIT.ok;
  },
};

function oneUid(args: string[]): string {
  const [uid, ...more] = args;
  if (!uid || more.length) throw new CliUsageError('give exactly one pod UID after the source');
  return uid;
}

/**
 * `label` names the pod in warnings; `now` is what ages count to (a file's time offline). A masked pod
 * prints only what the mask selected, never Go's zero values for the rest.
 */
function podText(pod: PodTree, opts: Pick<NodeCommandOptions, 'output' | 'showManagedFields' | 'mask'>, label: string, now = Date.now()): string {
  if (opts.output === 'table') return `${podTable([pod], now, opts.mask)}\n`;
  return formattedPod(pod, opts.output as ListFormat, { showManagedFields: opts.showManagedFields, ...(opts.mask ? { mask: opts.mask } : {}) }, label);
}

export const run = (argv: string[]) => runNodeCommand(spec, argv);
