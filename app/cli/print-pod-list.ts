/**
 * Prints all of a node's pods as a kubectl List or NDJSON: masked pods from their trees, unmasked
 * ones straight from their bytes (no trees built), streamed to stdout in chunks or written atomically
 * to a file. Pods that do not decode are reported and left out; the caller gets the exit code.
 */
import { writeFileAtomicFromChunks } from '../fs/atomic-file';
import { whyCannotWrite } from '../fs/write-error';
import type { KubeletClient } from '../kubelet/kubelet-client';
import type { FieldMask } from '../mask/field-mask';
import type { PodDecodeError } from '../pod/decode';
import { streamPodBytesAsKubectl, streamPodsAsKubectl, type PrintedList } from '../pod/kubectl-json';
import { EXIT } from './exit-codes';
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

function reportProblems(pods: Uint8Array[], result: Omit<PrintedList, 'bytes'>): number {
  for (const { index, fields } of result.unknownFields) process.stderr.write(`${unknownFieldsWarningForBytes(pods[index]!, fields)}\n`);
  for (const err of result.errors as PodDecodeError[]) process.stderr.write(`nodescope: left out a pod that does not decode: ${err.message}\n`);
  return result.errors.length ? EXIT.data : EXIT.ok;
}

/** Prints the list; returns the exit code and the number of pods printed. */
export async function printPodList(client: KubeletClient, opts: PrintListOptions): Promise<{ code: number; count: number; bytes: number }> {
  const options = { showManagedFields: opts.showManagedFields };
  const { mask } = opts;
  if (mask) {
    const list = await client.listPods();
    noteMask(list.maskHonoured);
    warnUnknownFields(list.pods);
    const trees = list.pods.map((p) => p.pod);
    const stream = (sink: (text: string) => void) => streamPodsAsKubectl(trees, sink, { ndjson: opts.ndjson, ...options, mask });
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
  const pods = await client.listPodBytes();
  if (opts.file) {
    let written;
    try {
      written = writeFileAtomicFromChunks(opts.file, (write) => streamPodBytesAsKubectl(pods, write, { ndjson: opts.ndjson, ...options }));
    } catch (err) {
      throw cannotWrite(opts.file, err);
    }
    const { result, bytes } = written;
    return { code: reportProblems(pods, result), count: pods.length - result.errors.length, bytes };
  }
  let bytes = 0;
  const pending: Promise<void>[] = [];
  // Chunks are only valid during the call: copy each before handing it to stdout.
  const result = streamPodBytesAsKubectl(pods, (chunk) => {
    bytes += chunk.length;
    pending.push(writeStdout(Buffer.from(chunk)));
  }, { ndjson: opts.ndjson, ...options });
  await Promise.all(pending);
  return { code: reportProblems(pods, result), count: pods.length - result.errors.length, bytes };
}
