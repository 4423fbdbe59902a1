/** `nodescope export NODE`: every pod as a kubectl List (JSON or YAML, or NDJSON), to stdout or a file written atomically. */
import { runNodeCommand, type NodeCommandSpec } from './node-command';
import type { ListFormat } from './pod-output';
import { printPodList } from './print-pod-list';
import { printError } from './terminal-text';

export const summary = "export a node's pods as a kubectl List (JSON or YAML) or NDJSON (stdout or --file)";

const spec: NodeCommandSpec = {
  name: 'export',
  usage: "usage: nodescope export NODE [--file PATH] [options]\n\nWrites all of NODE's pods as kubectl get pods -o json would (-o yaml: as -o yaml would; -o ndjson: one per line).",
  outputs: ['json', 'yaml', 'ndjson'],
  extra: { file: { type: 'string' }, force: { type: 'boolean', default: false } },
  extraHelp: [
    'export:',
    '  --file PATH                write here (atomically: readers never see half a file) instead of stdout;',
    '                             a new file is private (0600), an existing one keeps its permissions',
    '  --force                    replace PATH if it exists (without it, an existing file is left alone)',
  ].join('\n'),
  async run({ client }, opts) {
    const file = opts.extraValues.file as string | undefined;
    const { mask, showManagedFields } = opts;
    const result = await printPodList(client, {
      format: opts.output as ListFormat,
      showManagedFields,
      ...(mask ? { mask } : {}),
      ...(file !== undefined ? { file, replace: opts.extraValues.force === true } : {}),
    });
    if (file !== undefined) printError(`nodescope: wrote ${result.count} pods (${result.bytes} bytes) to ${file}`);
    return result.code;
  },
};

export const run = (argv: string[]) => runNodeCommand(spec, argv);
