/**
 * Prints all of a node's pods as a kubectl List or NDJSON: masked pods from their trees, unmasked
 * ones straight from their bytes (no trees built) as they arrive from the node, streamed to stdout in
 * chunks or written atomically to a file. Pods that do not decode are reported and left out; the caller
 * gets the exit code.
 */
import { writeFileAtomicFromChunks, writeFileAtomicFromChunksAsync } from '../fs/atomic-file';
import { whyCannotWrite } from '../fs/write-error';
import type { KubeletClient } from '../kubelet/kubelet-client';
import type { FieldMask } from '../mask/field-mask';
import type { PodDecodeError } from '../pod/decode';
import { PodBytesListPrinter, streamPodsAsKubectl, type PrintedList } from '../pod/kubectl-json';
import { ChunkedOutput } from './chunked-output';
import { EXIT } from './exit-codes';
import { listProgress } from './list-progress';
import { CliUsageError } from './node-options';
import { noteMask, warnUnknownFields, writeStdout } from './node-command';
import { unknownFieldsWarningForBytes } from './unknown-fields-warning';

export interface PrintListOptions {
  ndjson: boolean;
  showManagedFields: boolean;
  mask?: FieldMask;
  /** Write here atomically instead of stdout. */
  file?: string;
}

/** A --file that cannot be written is the user's to fix: say why in words, not as an errno. */
function cannotWrite(path: string, err: unknown): unknown {
  const why = whyCannotWrite(err);
  return why ? new CliUsageError(`cannot write ${path}: ${why}; give --file a file path in a folder you can write to`) : err;
}

function reportProblems(result: Omit<PrintedList, 'bytes'>): number {
  for (const err of result.errors as PodDecodeError[]) process.stderr.write(`nodescope: left out a pod that does not decode: ${err.message}\n`);
  return result.errors.length ? EXIT.data : EXIT.ok;
}

/** Prints the list; returns the exit code and the number of pods printed. */
export async function printPodList(client: KubeletClient, opts: PrintListOptions): Promise<{ code: number; count: number; bytes: number }> {
  const options = { showManagedFields: opts.showManagedFields };
  if (opts.mask) {
    const list = await client.listPods();
    noteMask(list.maskHonoured);
    warnUnknownFields(list.pods);
    const trees = list.pods.map((p) => p.pod);
    const stream = (sink: (text: string) => void) => streamPodsAsKubectl(trees, sink, { ndjson: opts.ndjson, ...options });
    if (opts.file) {
      try {
        const { bytes } = writeFileAtomicFromChunks(opts.file, (write) => stream((text) => write(Buffer.from(text))));
        return { code: EXIT.ok, count: trees.length, bytes };
      } catch (err) {
        throw cannotWrite(opts.file, err);
      }
    }
    let bytes = 0;
    const pending: Promise<void>[] = [];
    stream((text) => {
      bytes += Buffer.byteLength(text);
      pending.push(writeStdout(text));
    });
    await Promise.all(pending);
    return { code: EXIT.ok, count: trees.length, bytes };
  }
  // Progress goes to a terminal's stderr, unless the data is drawn on that same terminal.
  const progress = listProgress(opts.file !== undefined || !process.stdout.isTTY);
  const print = async (write: (chunk: Uint8Array) => void, wait?: () => Promise<void> | null) => {
    const printer = new PodBytesListPrinter(write, { ndjson: opts.ndjson, ...options });
    try {
      await client.streamPodBytes({
        pod: (bytes) => {
          const fields = printer.add(bytes);
          if (fields.length) progress.line(unknownFieldsWarningForBytes(bytes, fields));
          progress.pod();
        },
        ...(wait ? { wait } : {}),
      });
    } finally {
      progress.done();
    }
    return { ...printer.end(), count: printer.count };
  };
  if (opts.file) {
    let written;
    try {
      written = await writeFileAtomicFromChunksAsync(opts.file, (write) => print(write));
    } catch (err) {
      throw cannotWrite(opts.file, err);
    }
    const { result, bytes } = written;
    return { code: reportProblems(result), count: result.count, bytes };
  }
  const out = new ChunkedOutput();
  const result = await print(out.write, out.wait);
  await out.flushed();
  return { code: reportProblems(result), count: result.count, bytes: out.bytes };
}
