/** `nodescope export NODE`: every pod as a kubectl List (JSON or YAML, or NDJSON), to stdout or a file written atomically. */
import { runNodeCommand, type NodeCommandSpec } from './node-command';
import type { ListFormat } from './pod-output';
import { printPodList } from './print-pod-list';

export const summary = "export a node's pods as a kubectl List (JSON or YAML) or NDJSON (stdout or --file)";

const spec: NodeCommandSpec = {
  name: 'export',
  usage: "usage: nodescope export NODE [--file PATH] [options]\n\nWrites all of NODE's pods as kubectl get pods -o json would (-o yaml: as -o yaml would; -o ndjson: one per line).",
  outputs: ['json', 'yaml', 'ndjson'],
  extra: { file: { type: 'string' } },
  extraHelp: 'export:\n  --file PATH                write here (atomically: readers never see half a file) instead of stdout',
  async run({ client }, opts) {
    const file = opts.extraValues.file as string | undefined;
    const { mask, showManagedFields } = opts;
    const result = await printPodList(client, {
      format: opts.output as ListFormat,
      showManagedFields,
      ...(mask ? { mask } : {}),
      ...(file !== undefined ? { file } : {}),
    });
    if (file !== undefined) process.stderr.write(`nodescope: wrote ${result.count} pods (${result.bytes} bytes) to ${file}\n`);
    return result.code;
  },
};

export const run = (argv: string[]) => runNodeCommand(spec, argv);
