/**
 * `nodescope export SOURCE`: every pod as a kubectl List (JSON or YAML, or NDJSON), to stdout or a file
 * written atomically. With --file, a sidecar F.nodescope.json records where and when the pods were taken
 * (snapshot-provenance.ts).
 */
import { constants } from 'node:os';
import { resolve } from 'node:path';
import { writeSnapshotSidecar, type PodFileProvenance } from '../snapshot/snapshot-provenance';
import { runNodeCommand, type NodeCommandSpec } from './node-command';
import { STOP_SIGNALS } from '../process/stop-signals';
import { UsageError } from './usage-error';
import type { ListFormat } from './pod-output';
import { printPodList, printPodTrees } from './print-pod-list';
import { printError } from './terminal-text';
import { parseSelection, selector, SELECTION_HELP, SELECTION_OPTIONS } from './pod-selection';

async function wrote(file: string, result: { count: number; bytes: number }, provenance: PodFileProvenance): Promise<void> {
  printError(`nodescope: wrote ${result.count} pods (${result.bytes} bytes) to ${file}`);
  try {
    await writeSnapshotSidecar(file, { provenance, bytes: result.bytes, pods: result.count });
  } catch (err) {
    // The export itself is whole; only where and when it was taken is missing.
    printError(`nodescope: warning: could not write ${file}.nodescope.json (${(err as Error).message}); the export opens without its node and time`);
  }
}

const spec: NodeCommandSpec = {
  name: 'export',
  usage:
    "usage: nodescope export SOURCE [--file PATH] [options]\n\nWrites SOURCE's pods (all, or those -n/-l/--field-selector keep) as kubectl get pods -o json would (-o yaml: as -o yaml would; -o ndjson: one per line).\nSOURCE may be a snapshot or recording file (--at TIME): the file converted, e.g. .pb to a List.",
  outputs: ['json', 'yaml', 'ndjson'],
  extra: { file: { type: 'string' }, force: { type: 'boolean', default: false }, ...SELECTION_OPTIONS },
  check(opts) {
    parseSelection(opts.extraValues, opts.mask);
  },
  extraHelp: [
    SELECTION_HELP,
    'export:',
    '  --file PATH                write here (atomically: readers never see half a file) instead of stdout,',
    '                             with PATH.nodescope.json beside it saying which node and when;',
    '                             a new file is private (0600), an existing one keeps its permissions',
    '  --force                    replace PATH if it exists (without it, an existing file is left alone)',
  ].join('\n'),
  async run({ client, socketPath }, opts) {
    const file = opts.extraValues.file as string | undefined;
    const { mask, showManagedFields } = opts;
    const selection = parseSelection(opts.extraValues, mask);
    const select = selector(selection);
    const options = { format: opts.output as ListFormat, showManagedFields, ...(mask ? { mask } : {}), ...(select ? { select } : {}) };
    if (file === undefined) return (await printPodList(client, options)).code;
    const takenAt = new Date().toISOString();
    // Ctrl-C must not leave a half-made temporary file, nor claim the export failed when the file was already
    // replaced: the signal stops the wait for the kubelet and is answered with what happened to the file. The
    // handlers stay until the process exits, so a signal while the connection closes is answered too.
    const interrupt = new AbortController();
    let writtenCode: number | undefined;
    const onSignal = (signal: NodeJS.Signals) => {
      if (writtenCode !== undefined) {
        printError(`nodescope export: ${signal} while closing the connection; ${file} was already written in full`);
        process.exit(writtenCode);
      }
      if (interrupt.signal.aborted) process.exit(128 + constants.signals[signal]);
      interrupt.abort(signal);
    };
    // A terminal that goes away (SIGHUP) stops it as Ctrl-C does: its default would leave the temporary file.
    for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
    try {
      const result = await printPodList(client, { ...options, file, replace: opts.extraValues.force === true, signal: interrupt.signal });
      writtenCode = result.code;
      const node = opts.local !== undefined && opts.node === 'local' ? `unix:${socketPath}` : opts.node;
      await wrote(file, result, { node, takenAt, origin: 'nodescope export' });
      return result.code;
    } catch (err) {
      const signal = interrupt.signal.reason as NodeJS.Signals | undefined;
      if (!signal) throw err;
      printError(`nodescope export: ${signal}: stopped before anything was written; ${file} is as it was`);
      return 128 + constants.signals[signal];
    }
  },
  async offline(source, opts) {
    const file = opts.extraValues.file as string | undefined;
    if (file !== undefined && resolve(file) === resolve(source.file.path)) throw new UsageError(`--file ${file} is the file being read: Nodescope never writes over it; give another name`);
    const selection = parseSelection(opts.extraValues, opts.mask);
    const trees = source.pods.map((p) => p.pod);
    const select = selector(selection);
    const result = await printPodTrees(select ? select(trees) : trees, {
      format: opts.output as ListFormat,
      showManagedFields: opts.showManagedFields,
      ...(opts.mask ? { mask: opts.mask } : {}),
      ...(file !== undefined ? { file, replace: opts.extraValues.force === true } : {}),
    });
    const { node, takenAt } = source.file.provenance;
    const when = source.at !== undefined ? new Date(source.at).toISOString() : takenAt;
    if (file !== undefined) await wrote(file, result, { ...(node ? { node } : {}), ...(when ? { takenAt: when } : {}), origin: `nodescope export of ${source.file.path}` });
    return result.code;
  },
};

export const run = (argv: string[]) => runNodeCommand(spec, argv);
