/** `nodescope export NODE`: every pod as a kubectl List (or NDJSON), to stdout or a file written atomically. */
import { writeFileAtomic } from '../inspector/atomic-file';
import { podBytesListToKubectl, podsToKubectlListJson, podToNdjsonLine } from '../pod/kubectl-json';
import { EXIT } from './exit-codes';
import { noteMask, runNodeCommand, warnUnknownFields, writeStdout, type NodeCommandSpec } from './node-command';

export const summary = "export a node's pods as a kubectl List JSON or NDJSON (stdout or --file)";

const spec: NodeCommandSpec = {
  name: 'export',
  usage: "usage: nodescope export NODE [--file PATH] [options]\n\nWrites all of NODE's pods as kubectl get pods -o json would (or one per line with -o ndjson).",
  outputs: ['json', 'ndjson'],
  extra: { file: { type: 'string' } },
  extraHelp: 'export:\n  --file PATH                write here (atomically: readers never see half a file) instead of stdout',
  async run({ client }, opts) {
    const list = await client.listPods();
    noteMask(list.maskHonoured);
    warnUnknownFields(list.pods);
    const ndjson = opts.output === 'ndjson';
    const options = { showManagedFields: opts.showManagedFields };
    let text: string | Uint8Array;
    if (opts.mask) {
      const trees = list.pods.map((p) => p.pod);
      text = ndjson ? trees.map((t) => `${podToNdjsonLine(t, options)}\n`).join('') : podsToKubectlListJson(trees, options);
    } else {
      text = podBytesListToKubectl(list.pods.map((p) => p.bytes), { ndjson, ...options }).bytes;
    }
    const file = opts.extraValues.file as string | undefined;
    if (file === undefined) await writeStdout(text);
    else {
      const size = await writeFileAtomic(file, typeof text === 'string' ? text : Buffer.from(text).toString('utf8'));
      process.stderr.write(`nodescope: wrote ${list.pods.length} pods (${size} bytes) to ${file}\n`);
    }
    return EXIT.ok;
  },
};

export const run = (argv: string[]) => runNodeCommand(spec, argv);
