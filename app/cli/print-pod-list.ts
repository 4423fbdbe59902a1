/**
 * Prints all of a node's pods as a kubectl List (JSON or YAML) or NDJSON: masked pods from their trees,
 * unmasked ones straight from their bytes (no trees built), JSON as they arrive from the node, streamed to
 * stdout in chunks or written atomically to a file. Pods that do not decode are reported and left out; the
 * caller gets the exit code.
 */
import { writeFileAtomicFromChunks, writeFileAtomicFromChunksAsync } from '../fs/atomic-file';
import { whyCannotWrite } from '../fs/write-error';
import type { KubeletClient } from '../kubelet/kubelet-client';
import type { FieldMask } from '../mask/field-mask';
import type { PodDecodeError } from '../pod/decode';
import { PodBytesListPrinter, streamPodsAsKubectl } from '../pod/kubectl-json';
import { streamPodBytesAsKubectlYaml, streamPodsAsKubectlYaml } from '../pod/kubectl-yaml';
import type { PodTree } from '../pod/pod-tree';
import { ChunkedOutput } from './chunked-output';
import { ParallelPodPrinter } from './parallel-pod-printer';
import { EXIT } from './exit-codes';
import { listProgress } from './list-progress';
import { UsageError } from './usage-error';
import { noteMask, reportUndecodable, warnUnknownFields, writeStdout } from './node-command';
import { warnYamlProblems, type ListFormat } from './pod-output';
import { terminalText } from './terminal-text';
import { unknownFieldsWarningForBytes } from './unknown-fields-warning';

export interface PrintListOptions {
  format: ListFormat;
  showManagedFields: boolean;
  mask?: FieldMask;
  /** Write here atomically instead of stdout. */
  file?: string;
  /** Replace the file if it exists (--force); otherwise an existing file is refused and left as it was. */
  replace?: boolean;
  /** Stops waiting for the kubelet; once its answer is in, the output is written whole. */
  signal?: AbortSignal;
  /** The pods to print of the list (-n, -l, --field-selector, --sort-by); it needs the whole list, decoded. */
  select?: (pods: PodTree[]) => PodTree[];
}

/** `promise`, or the signal's reason as soon as it is aborted (the call itself ends when the client closes). */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** A --file that cannot be written is the user's to fix: say why in words, not as an errno. */
function cannotWrite(path: string, err: unknown): unknown {
  if ((err as NodeJS.ErrnoException).code === 'EEXIST') return new UsageError(`${path} exists already; add --force to replace it, or give --file another name`);
  const why = whyCannotWrite(err);
  return why ? new UsageError(`cannot write ${path}: ${why}; give --file a file path in a folder you can write to`) : err;
}

const fileOptions = (opts: PrintListOptions) => ({ existing: opts.replace ? ('replace' as const) : ('refuse' as const) });

/**
 * Prints pod trees (masked, or read from a pod file) the same way; returns the exit code, pods and bytes
 * printed. With opts.mask (the one the trees went through) only what it selected is printed.
 */
export async function printPodTrees(trees: PodTree[], opts: PrintListOptions): Promise<{ code: number; count: number; bytes: number }> {
  const options = { showManagedFields: opts.showManagedFields, ...(opts.mask ? { mask: opts.mask } : {}) };
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
  const { signal } = opts;
  if (opts.mask || opts.select) {
    const list = await unlessAborted(client.listPods(), signal);
    noteMask(list.maskHonoured);
    warnUnknownFields(list.pods);
    const trees = list.pods.map((p) => p.pod);
    const printed = await printPodTrees(opts.select ? opts.select(trees) : trees, opts);
    return { ...printed, code: reportUndecodable(list.undecodable) };
  }
  // Progress goes to a terminal's stderr, unless the data is drawn on that same terminal.
  const progress = listProgress(opts.file !== undefined || !process.stdout.isTTY);
  const print = async (write: (chunk: Uint8Array) => void, wait?: () => Promise<void> | null) => {
    let parallel: ParallelPodPrinter | undefined;
    try {
      if (opts.format === 'yaml') {
        // YAML is printed from the whole list: go-yaml's output of a List is not a sum of its items' output.
        const { bytes: pods, undecodable } = await unlessAborted(client.listPodBytes(), signal);
        const result = streamPodBytesAsKubectlYaml(pods, (text) => write(Buffer.from(text)), options);
        warnYamlProblems('the pods', result.problems);
        for (const { index, fields } of result.unknownFields) progress.line(terminalText(unknownFieldsWarningForBytes(pods[index]!, fields)));
        return { errors: [...undecodable, ...result.errors], count: pods.length - result.errors.length };
      }
      const ndjson = opts.format === 'ndjson';
      const printer = new PodBytesListPrinter(write, { ndjson, ...options });
      parallel = new ParallelPodPrinter(printer, { ndjson, ...options }, (line) => progress.line(terminalText(line)));
      const printing = parallel;
      const undecodable: PodDecodeError[] = [];
      await unlessAborted(
        client.streamPodBytes({
          pod: (bytes) => {
            // A Ctrl-C ends the stream here: the file being written is dropped, never half-replaced.
            signal?.throwIfAborted();
            printing.add(bytes);
            progress.pod();
          },
          wait: () => printing.wait() ?? wait?.() ?? null,
          size: (n) => printing.expect(n),
          undecodable: (err) => undecodable.push(err),
        }),
        signal,
      );
      return { errors: [...undecodable, ...(await printing.end()).errors], count: printer.count };
    } finally {
      parallel?.close();
      progress.done();
    }
  };
  if (opts.file) {
    let written;
    try {
      written = await writeFileAtomicFromChunksAsync(opts.file, (write) => print(write), fileOptions(opts));
    } catch (err) {
      throw cannotWrite(opts.file, err);
    }
    const { result, bytes } = written;
    return { code: reportUndecodable(result.errors), count: result.count, bytes };
  }
  const out = new ChunkedOutput();
  const result = await print(out.write, out.wait);
  await out.flushed();
  return { code: reportUndecodable(result.errors), count: result.count, bytes: out.bytes };
}
