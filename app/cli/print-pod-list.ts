/**
 * Prints all of a node's pods as a kubectl List or NDJSON: masked pods from their trees, unmasked
 * ones straight from their bytes (no trees built), streamed to stdout in chunks or written atomically
 * to a file. Pods that do not decode are reported and left out; the caller gets the exit code.
 */
import { writeFileAtomic, writeFileAtomicFromChunks } from '../fs/atomic-file';
import type { KubeletClient } from '../kubelet/kubelet-client';
import type { FieldMask } from '../mask/field-mask';
import { decodePod, type PodDecodeError } from '../pod/decode';
import { podsToKubectlListJson, podToNdjsonLine, streamPodBytesAsKubectl, type PrintedList } from '../pod/kubectl-json';
import type { PodObject } from '../pod/pod-tree';
import { EXIT } from './exit-codes';
import { noteMask, warnUnknownFields, writeStdout } from './node-command';
import { unknownFieldsWarning } from './unknown-fields-warning';

export interface PrintListOptions {
  ndjson: boolean;
  showManagedFields: boolean;
  mask?: FieldMask;
  /** Write here atomically instead of stdout. */
  file?: string;
}

function podName(bytes: Uint8Array): string {
  const meta = decodePod(bytes).pod.metadata as PodObject | undefined;
  return `${String(meta?.namespace ?? '')}/${String(meta?.name ?? '?')}`;
}

function reportProblems(pods: Uint8Array[], result: Omit<PrintedList, 'bytes'>): number {
  for (const { index, fields } of result.unknownFields) process.stderr.write(`${unknownFieldsWarning(podName(pods[index]!), fields)}\n`);
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
    const text = opts.ndjson ? trees.map((t) => `${podToNdjsonLine(t, options)}\n`).join('') : podsToKubectlListJson(trees, options);
    const bytes = opts.file ? await writeFileAtomic(opts.file, text) : (await writeStdout(text), Buffer.byteLength(text));
    return { code: EXIT.ok, count: trees.length, bytes };
  }
  const pods = await client.listPodBytes();
  if (opts.file) {
    const { result, bytes } = writeFileAtomicFromChunks(opts.file, (write) => streamPodBytesAsKubectl(pods, write, { ndjson: opts.ndjson, ...options }));
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
