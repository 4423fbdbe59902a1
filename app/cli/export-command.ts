/**
 * `nodescope export SOURCE`: every pod as a kubectl List (or NDJSON), to stdout or a file written atomically.
 * With --file, a sidecar F.nodescope.json records where and when the pods were taken (snapshot-provenance.ts).
 */
import { resolve } from 'node:path';
import { writeSnapshotSidecar, type PodFileProvenance } from '../snapshot/snapshot-provenance';
import { runNodeCommand, type NodeCommandSpec } from './node-command';
import { CliUsageError } from './node-options';
import { printPodList, printPodTrees } from './print-pod-list';

export const summary = "export a node's (or a file's) pods as a kubectl List JSON or NDJSON (stdout or --file)";

async function wrote(file: string, result: { count: number; bytes: number }, provenance: PodFileProvenance): Promise<void> {
  process.stderr.write(`nodescope: wrote ${result.count} pods (${result.bytes} bytes) to ${file}\n`);
  try {
    await writeSnapshotSidecar(file, { provenance, bytes: result.bytes, pods: result.count });
  } catch (err) {
    // The export itself is whole; only where and when it was taken is missing.
    process.stderr.write(`nodescope: warning: could not write ${file}.nodescope.json (${(err as Error).message}); the export opens without its node and time\n`);
  }
}

const spec: NodeCommandSpec = {
  name: 'export',
  usage:
    'usage: nodescope export SOURCE [--file PATH] [options]\n\nWrites all of SOURCE\'s pods as kubectl get pods -o json would (or one per line with -o ndjson).\nSOURCE may be a snapshot or recording file (--at TIME): the file converted, e.g. .pb to a List.',
  outputs: ['json', 'ndjson'],
  extra: { file: { type: 'string' } },
  extraHelp:
    'export:\n  --file PATH                write here (atomically: readers never see half a file) instead of stdout,\n                             with PATH.nodescope.json beside it saying which node and when',
  async run({ client, socketPath }, opts) {
    const file = opts.extraValues.file as string | undefined;
    const { mask, showManagedFields } = opts;
    const takenAt = new Date().toISOString();
    const result = await printPodList(client, {
      ndjson: opts.output === 'ndjson',
      showManagedFields,
      ...(mask ? { mask } : {}),
      ...(file !== undefined ? { file } : {}),
    });
    const node = opts.local !== undefined && opts.node === 'local' ? `unix:${socketPath}` : opts.node;
    if (file !== undefined) await wrote(file, result, { node, takenAt, origin: 'nodescope export' });
    return result.code;
  },
  async offline(source, opts) {
    const file = opts.extraValues.file as string | undefined;
    if (file !== undefined && resolve(file) === resolve(source.file.path)) throw new CliUsageError(`--file ${file} is the file being read: Nodescope never writes over it; give another name`);
    const result = await printPodTrees(
      source.pods.map((p) => p.pod),
      { ndjson: opts.output === 'ndjson', showManagedFields: opts.showManagedFields, ...(file !== undefined ? { file } : {}) },
    );
    const { node, takenAt } = source.file.provenance;
    const when = source.at !== undefined ? new Date(source.at).toISOString() : takenAt;
    if (file !== undefined) await wrote(file, result, { ...(node ? { node } : {}), ...(when ? { takenAt: when } : {}), origin: `nodescope export of ${source.file.path}` });
    return result.code;
  },
};

export const run = (argv: string[]) => runNodeCommand(spec, argv);
