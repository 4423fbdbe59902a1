/** `nodescope export NODE`: every pod as a kubectl List (or NDJSON), to stdout or a file written atomically. */
import { constants } from 'node:os';
import { runNodeCommand, type NodeCommandSpec } from './node-command';
import { printPodList } from './print-pod-list';

export const summary = "export a node's pods as a kubectl List JSON or NDJSON (stdout or --file)";

const spec: NodeCommandSpec = {
  name: 'export',
  usage: "usage: nodescope export NODE [--file PATH] [options]\n\nWrites all of NODE's pods as kubectl get pods -o json would (or one per line with -o ndjson).",
  outputs: ['json', 'ndjson'],
  extra: { file: { type: 'string' } },
  extraHelp: 'export:\n  --file PATH                write here (atomically: readers never see half a file) instead of stdout',
  async run({ client }, opts) {
    const file = opts.extraValues.file as string | undefined;
    const { mask, showManagedFields } = opts;
    const options = { ndjson: opts.output === 'ndjson', showManagedFields, ...(mask ? { mask } : {}) };
    if (file === undefined) return (await printPodList(client, options)).code;
    // Ctrl-C must not leave a half-made temporary file, nor claim the export failed when the file was already
    // replaced: the signal stops the wait for the kubelet and is answered with what happened to the file. The
    // handlers stay until the process exits, so a signal while the connection closes is answered too.
    const interrupt = new AbortController();
    let writtenCode: number | undefined;
    const onSignal = (signal: NodeJS.Signals) => {
      if (writtenCode !== undefined) {
        process.stderr.write(`nodescope export: ${signal} while closing the connection; ${file} was already written in full\n`);
        process.exit(writtenCode);
      }
      if (interrupt.signal.aborted) process.exit(128 + constants.signals[signal]);
      interrupt.abort(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    try {
      const result = await printPodList(client, { ...options, file, signal: interrupt.signal });
      writtenCode = result.code;
      process.stderr.write(`nodescope: wrote ${result.count} pods (${result.bytes} bytes) to ${file}\n`);
      return result.code;
    } catch (err) {
      const signal = interrupt.signal.reason as NodeJS.Signals | undefined;
      if (!signal) throw err;
      process.stderr.write(`nodescope export: ${signal}: stopped before anything was written; ${file} is as it was\n`);
      return 128 + constants.signals[signal];
    }
  },
};

export const run = (argv: string[]) => runNodeCommand(spec, argv);
