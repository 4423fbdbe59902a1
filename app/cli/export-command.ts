/** `nodescope export NODE`: every pod as a kubectl List (or NDJSON), to stdout or a file written atomically. */
import { runNodeCommand, type NodeCommandSpec } from './node-command';
import { printPodList } from './print-pod-list';

const spec: NodeCommandSpec = {
  name: 'export',
  usage: "usage: nodescope export NODE [--file PATH] [options]\n\nWrites all of NODE's pods as kubectl get pods -o json would (or one per line with -o ndjson).",
  outputs: ['json', 'ndjson'],
  extra: { file: { type: 'string' } },
  extraHelp: 'export:\n  --file PATH                write here (atomically: readers never see half a file) instead of stdout',
  async run({ client }, opts) {
    const file = opts.extraValues.file as string | undefined;
    const { mask, showManagedFields } = opts;
    const result = await printPodList(client, {
      ndjson: opts.output === 'ndjson',
      showManagedFields,
      ...(mask ? { mask } : {}),
      ...(file !== undefined ? { file } : {}),
    });
    if (file !== undefined) process.stderr.write(`nodescope: wrote ${result.count} pods (${result.bytes} bytes) to ${file}\n`);
    return result.code;
  },
};

export const run = (argv: string[]) => runNodeCommand(spec, argv);
