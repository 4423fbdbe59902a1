/**
 * Prints all of a node's pods as a kubectl List (JSON or YAML) or NDJSON: masked pods from their trees,
 * unmasked ones straight from their bytes (no trees built), streamed to stdout in chunks or written
 * atomically to a file. Pods that do not decode are reported and left out; the caller gets the exit code.
 */
import { writeFileAtomicFromChunks } from '../fs/atomic-file';
import { whyCannotWrite } from '../fs/write-error';
import type { KubeletClient } from '../kubelet/kubelet-client';
import type { FieldMask } from '../mask/field-mask';
import type { PodDecodeError } from '../pod/decode';
import { streamPodBytesAsKubectl, streamPodsAsKubectl, type PrintedList } from '../pod/kubectl-json';
import { streamPodBytesAsKubectlYaml, streamPodsAsKubectlYaml } from '../pod/kubectl-yaml';
import type { PodTree } from '../pod/pod-tree';
import { EXIT } from './exit-codes';
import { CliUsageError } from './node-options';
import { noteMask, warnUnknownFields, writeStdout } from './node-command';
import { warnYamlProblems, type ListFormat } from './pod-output';
import { unknownFieldsWarningForBytes } from './unknown-fields-warning';
import { printError } from './terminal-text';

export interface PrintListOptions {
  format: ListFormat;
  showManagedFields: boolean;
  mask?: FieldMask;
  /** Write here atomically instead of stdout. */
  file?: string;
  /** Replace the file if it exists (--force); otherwise an existing file is refused and left as it was. */
  replace?: boolean;
}

/** A --file that cannot be written is the user's to fix: say why in words, not as an errno. */
function cannotWrite(path: string, err: unknown): unknown {
  if ((err as NodeJS.ErrnoException).code === 'EEXIST') return new CliUsageError(`${path} exists already; add --force to replace it, or give --file another name`);
  const why = whyCannotWrite(err);
  return why ? new CliUsageError(`cannot write ${path}: ${why}; give --file a file path in a folder you can write to`) : err;
}

const fileOptions = (opts: PrintListOptions) => ({ existing: opts.replace ? ('replace' as const) : ('refuse' as const) });

function reportProblems(pods: Uint8Array[], result: Omit<PrintedList, 'bytes'>): number {
  for (const { index, fields } of result.unknownFields) printError(unknownFieldsWarningForBytes(pods[index]!, fields));
  for (const err of result.errors as PodDecodeError[]) printError(`nodescope: left out a pod that does not decode: ${err.message}`);
  return result.errors.length ? EXIT.data : EXIT.ok;
}

/** Prints pod trees (masked, or read from a pod file) the same way; returns the exit code, pods and bytes printed. */
export async function printPodTrees(trees: PodTree[], opts: Omit<PrintListOptions, 'mask'>): Promise<{ code: number; count: number; bytes: number }> {
  const options = { showManagedFields: opts.showManagedFields };
  const stream = (sink: (text: string) => void) =>
    opts.format === 'yaml'
      ? warnYamlProblems('the pods', streamPodsAsKubectlYaml(trees, sink, options))
      : streamPodsAsKubectl(trees, sink, { ndjson: opts.format === 'ndjson', ...options });
  if (opts.file) {
    try {
      const { bytes } = writeFileAtomicFromChunks(opts.file, (write) => stream((text) => write(Buffer.from(text))), fileOptions(opts));
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

/** Prints the list; returns the exit code and the number of pods printed. */
export async function printPodList(client: KubeletClient, opts: PrintListOptions): Promise<{ code: number; count: number; bytes: number }> {
  const options = { showManagedFields: opts.showManagedFields };
  if (opts.mask) {
    const list = await client.listPods();
    noteMask(list.maskHonoured);
    warnUnknownFields(list.pods);
    return printPodTrees(list.pods.map((p) => p.pod), opts);
  }
  const pods = await client.listPodBytes();
  // YAML goes out as text pieces, JSON as byte chunks that are only valid during the call.
  const stream = (write: (chunk: Uint8Array) => void): Omit<PrintedList, 'bytes'> => {
    if (opts.format !== 'yaml') return streamPodBytesAsKubectl(pods, write, { ndjson: opts.format === 'ndjson', ...options });
    const result = streamPodBytesAsKubectlYaml(pods, (text) => write(Buffer.from(text)), options);
    warnYamlProblems('the pods', result.problems);
    return result;
  };
  if (opts.file) {
    let written;
    try {
      written = writeFileAtomicFromChunks(opts.file, stream, fileOptions(opts));
    } catch (err) {
      throw cannotWrite(opts.file, err);
    }
    const { result, bytes } = written;
    return { code: reportProblems(pods, result), count: pods.length - result.errors.length, bytes };
  }
  let bytes = 0;
  const pending: Promise<void>[] = [];
  const result = stream((chunk) => {
    bytes += chunk.length;
    pending.push(writeStdout(Buffer.from(chunk)));
  });
  await Promise.all(pending);
  return { code: reportProblems(pods, result), count: pods.length - result.errors.length, bytes };
}
