/**
 * `nodescope get SOURCE POD`: one pod, by UID, NAME or NAMESPACE/NAME, as kubectl get pod -o json (or -o yaml,
 * or its table) prints it, from a node or a pod file.
 */
import type { PodTree } from '../pod/pod-tree';
import { KubeletError } from '../kubelet/kubelet-error';
import { EXIT } from './exit-codes';
import { noteMask, runNodeCommand, warnUnknownFields, writeStdout, type NodeCommandSpec } from './node-command';
import { type NodeCommandOptions } from './node-options';
import { UsageError } from './usage-error';
import { asOf } from './offline-source';
import { firstPodOfEachUid } from '../pod/first-pod-of-uid';
import { printError } from './terminal-text';
import { podText as formattedPod, type ListFormat } from './pod-output';
import { describeReference, findPod, parsePodReference, type PodReference } from './pod-reference';
import { checkTableOutput, isTableOutput, TABLE_HELP, TABLE_OUTPUTS, tableText } from './table-output';
import { objAt, strAt } from '../pod/view/pod-tree-access';
import { keepsAnyOf } from '../mask/mask-coverage';

type Options = NodeCommandOptions & { extraValues: Record<string, unknown> };

const spec: NodeCommandSpec = {
  name: 'get',
  args: 1,
  usage:
    "usage: nodescope get SOURCE POD [options]\n\nPrints one pod of SOURCE's kubelet, or of a snapshot or recording file. POD is its UID, NAMESPACE/NAME,\nor NAME (with -n NAMESPACE, or alone when only one namespace has a pod of that name).",
  outputs: ['json', 'yaml', 'ndjson', ...TABLE_OUTPUTS],
  extra: { namespace: { type: 'string', short: 'n' } },
  extraHelp: `get:\n  -n, --namespace NS         the namespace of a POD given as NAME\n${TABLE_HELP}`,
  check(opts) {
    references(opts);
    checkTableOutput(opts.output);
  },
  async run({ client }, opts) {
    const refs = references(opts);
    if ('uid' in refs[0]!) {
      try {
        const { pod, maskHonoured } = await client.getPod(refs[0].uid);
        noteMask(maskHonoured);
        warnUnknownFields([pod]);
        await writeStdout(podText(pod.pod, opts, `${pod.namespace}/${pod.name}`));
        return EXIT.ok;
      } catch (err) {
        // Not a UID of this node: perhaps a name.
        if (!(err instanceof KubeletError && err.code === 'NOT_FOUND') || refs.length === 1) throw err;
      }
    }
    // The node's API finds pods by UID only: a name is looked up in the list (its identity comes from the wire, whatever the mask).
    const list = await client.listPods();
    noteMask(list.maskHonoured);
    const pod = findPod(list.pods, refs);
    if (!pod) throw new KubeletError('NOT_FOUND', `no pod with ${refs.map(describeReference).join(' or ')} on ${opts.node}`, `List the node's pods with nodescope pods ${opts.node}.`);
    warnUnknownFields([pod]);
    await writeStdout(podText(pod.pod, opts, `${pod.namespace}/${pod.name}`));
    return EXIT.ok;
  },
  async offline(source, opts) {
    let refs = references(opts);
    // A file's masked pods hold only what the mask selects: without their names they are found by UID only.
    if (opts.mask && !['metadata.name', 'metadata.namespace'].every((p) => keepsAnyOf(opts.mask!.paths, p))) {
      refs = refs.filter((r) => 'uid' in r);
      if (!refs.length) throw new UsageError('to get a pod by name from a file with --mask, add metadata.name,metadata.namespace to the mask (or give its UID)');
    }
    const identities = source.pods.map((p, i) => {
      const meta = objAt(p.pod.metadata);
      return { uid: source.uids[i]!, namespace: strAt(meta.namespace), name: strAt(meta.name), pod: p.pod };
    });
    const found = findPod(identities, refs);
    if (!found) {
      throw new UsageError(`no pod with ${refs.map(describeReference).join(' or ')} in ${source.file.path}${source.at !== undefined ? ' at that time' : ''}; list them with nodescope pods ${source.file.path}`);
    }
    // Pods are followed by uid: the first of it is the one, and any other with it is named as not shown.
    const sharing = found.uid === '' ? [] : source.uids.flatMap((u, i) => (u === found.uid ? [i] : []));
    if (sharing.length > 1) {
      const { leftOut } = firstPodOfEachUid(sharing, (i) => source.identities[i]!);
      for (const why of leftOut) printError(`nodescope: ${why}`);
    }
    await writeStdout(podText(found.pod, opts, found.uid, asOf(source)));
    return EXIT.ok;
  },
};

function references(opts: Options): PodReference[] {
  const [pod, ...more] = opts.args;
  if (!pod || more.length) throw new UsageError('give exactly one pod after the source: its UID, NAMESPACE/NAME or NAME');
  return parsePodReference(pod, opts.extraValues.namespace as string | undefined);
}

/**
 * `label` names the pod in warnings; `now` is what ages count to (a file's time offline). A masked pod
 * prints only what the mask selected, never Go's zero values for the rest.
 */
function podText(pod: PodTree, opts: Options, label: string, now = Date.now()): string {
  if (isTableOutput(opts.output)) {
    const namespaceColumn = opts.extraValues.namespace === undefined;
    return `${tableText([pod], opts.output, { now, namespaceColumn, ...(opts.mask ? { mask: opts.mask } : {}) })}\n`;
  }
  return formattedPod(pod, opts.output as ListFormat, { showManagedFields: opts.showManagedFields, ...(opts.mask ? { mask: opts.mask } : {}) }, label);
}

export const run = (argv: string[]) => runNodeCommand(spec, argv);
