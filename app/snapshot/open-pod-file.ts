/**
 * Opens a pod file, streaming: a snapshot (kubectl List JSON, NDJSON, one pod's JSON, kubectl YAML, .pb pod bytes
 * or a saved ListPodsResponse) or a recording. Read-only: nothing is ever written over the file. Every failure is a
 * PodFileError naming the file, where in it, what was expected and what to do.
 *
 *   const file = await openPodFile('pods.json', { onProgress: (p) => … });
 *   file.kind === 'snapshot' ? file.pods : file.podsAt(file.start + 60_000)
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { getHeapStatistics } from 'node:v8';
import { PodDecodeError } from '../pod/decode';
import { podFileError, readJsonPods, tooLargeFile } from './json-pod-reader';
import { KeptPodsBudget, type HeapUse } from './kept-pods-budget';
import { DEFAULT_POD_FILE_LIMITS, type PodFile, type PodFileLimits, type ReadPodFileOptions } from './pod-file';
import { PodFileError } from './pod-file-error';
import { readPodProtobuf } from './read-pod-protobuf';
import { readPodYamlOffThread } from './read-pod-yaml-off-thread';
import { readSnapshotSidecar, sidecarProvenance, SIDECAR_SUFFIX } from './snapshot-provenance';

export * from './pod-file';
export { PodFileError, type PodFileProblem } from './pod-file-error';

const PROTOBUF_EXTENSIONS = ['.pb', '.bin', '.protobuf'];
const READ_CHUNK = 1 << 20;

type Sniffed = 'json' | 'protobuf' | 'yaml';

/** What the file is, from its name and first bytes. */
function sniff(name: string, first: Uint8Array): Sniffed {
  if (PROTOBUF_EXTENSIONS.some((ext) => name.toLowerCase().endsWith(ext))) return 'protobuf';
  let i = first[0] === 0xef && first[1] === 0xbb && first[2] === 0xbf ? 3 : 0;
  while (i < first.length && (first[i] === 0x20 || first[i] === 0x0a || first[i] === 0x0d || first[i] === 0x09)) i++;
  const c = first[i];
  if (c === 0x7b || c === 0x5b) return 'json';
  const head = Buffer.from(first.subarray(i, i + 64)).toString('latin1');
  // kubectl -o yaml output (a List, a Pod, a stream of documents).
  if (/^(---|apiVersion:|kind:|items:|metadata:)/.test(head)) return 'yaml';
  // A pod's bytes and a ListPodsResponse both start with field 1, length-delimited.
  if (c === 0x0a && i === 0) return 'protobuf';
  return 'json';
}

/** The stream again, with its first chunk (already taken to sniff) in front. */
async function* prepend(first: Uint8Array, rest: AsyncIterator<Uint8Array>): AsyncIterable<Uint8Array> {
  yield first;
  for (let r = await rest.next(); !r.done; r = await rest.next()) yield r.value;
}

/** `tooLarge` says why when the file passes `max` bytes. */
async function readAll(chunks: AsyncIterable<Uint8Array>, file: string, max: number, tooLarge: (bytes: number) => PodFileError, budget: KeptPodsBudget, options: ReadPodFileOptions & { totalBytes?: number }): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  let bytes = 0;
  for await (const chunk of chunks) {
    if (options.signal?.aborted) throw podFileError(file, 'aborted', 'opening was cancelled');
    bytes += chunk.length;
    if (bytes > max) throw tooLarge(bytes);
    budget.checkHeap(bytes, options.totalBytes);
    parts.push(chunk);
  }
  return Buffer.concat(parts, bytes);
}

function tooLargeYaml(file: string, bytes: number, max: number): PodFileError {
  const mib = (n: number) => (n >= 1024 ** 2 ? `${Math.round(n / 1024 ** 2)} MiB` : `${n} bytes`);
  return new PodFileError({
    file,
    problem: 'too-large',
    detail: `this YAML is ${bytes > max ? `larger than ${mib(max)}` : mib(bytes)}; Nodescope reads YAML pod files of up to ${mib(max)}, since YAML is read whole and takes many times its size in memory`,
    next: 'Save the pods as JSON instead (kubectl get pods -o json > pods.json, or nodescope export), which opens as it streams in, up to 2 GiB; or split the YAML.',
  });
}

/** V8's heap figures: what the pods read fill, and the most this process may use. */
function v8Heap(): HeapUse {
  const h = getHeapStatistics();
  return { used: h.used_heap_size, limit: h.heap_size_limit };
}

/**
 * Reads pod data from a stream (a browser upload, or a file opened by openPodFile); `name` is the file's name,
 * used to tell .pb files and in messages. Provenance is only what the data itself carries (a recording's header).
 */
export async function readPodStream(chunks: AsyncIterable<Uint8Array>, name: string, options: ReadPodFileOptions & { totalBytes?: number } = {}): Promise<PodFile> {
  const limits: PodFileLimits = { ...DEFAULT_POD_FILE_LIMITS, ...options.limits };
  const it = chunks[Symbol.asyncIterator]();
  let first = await it.next();
  while (!first.done && first.value.length === 0) first = await it.next();
  if (first.done) throw podFileError(name, 'empty', 'the file is empty');
  const stream = prepend(first.value, it);
  const kind = sniff(name, first.value);
  const budget = new KeptPodsBudget(name, limits, options.heap ?? v8Heap);
  if (kind === 'yaml') {
    const bytes = await readAll(stream, name, limits.maxYamlBytes, (n) => tooLargeYaml(name, n, limits.maxYamlBytes), budget, options);
    const read = await readPodYamlOffThread(bytes, name, options.signal);
    for (let i = 0; i < read.pods.length; i++) budget.add(bytes.length, options.totalBytes);
    options.onProgress?.({ pods: read.pods.length, bytes: bytes.length, ...(options.totalBytes !== undefined ? { totalBytes: options.totalBytes } : {}) });
    return { kind: 'snapshot', path: name, format: 'yaml', provenance: {}, pods: read.pods, notes: read.notes };
  }
  if (kind === 'protobuf') {
    const bytes = await readAll(stream, name, limits.maxFileBytes, (n) => tooLargeFile(name, n, limits.maxFileBytes), budget, options);
    let read;
    try {
      read = readPodProtobuf(bytes, name);
    } catch (err) {
      if (!(err instanceof PodDecodeError)) throw err;
      throw podFileError(name, 'bad-value', `not pod bytes nor a ListPodsResponse: ${err.message}`, { offset: err.offset, expected: 'a protobuf pod (v1.Pod) or ListPodsResponse' }, err);
    }
    for (let i = 0; i < read.pods.length; i++) budget.add(bytes.length, options.totalBytes);
    options.onProgress?.({ pods: read.pods.length, bytes: bytes.length, ...(options.totalBytes !== undefined ? { totalBytes: options.totalBytes } : {}) });
    return { kind: 'snapshot', path: name, format: read.format, provenance: {}, pods: read.pods, notes: [] };
  }
  const read = await readJsonPods(stream, name, { ...options, limits, budget });
  return read.kind === 'recording' ? { ...read, path: name } : { ...read, path: name, provenance: {} };
}

/**
 * An uploaded file (browser mode), with the provenance of the sidecar the user picked with it, checked as
 * openPodFile checks the one beside a file (same export size, or ignored with a note).
 */
export async function readUploadedPodFile(chunks: AsyncIterable<Uint8Array>, name: string, sidecar?: string): Promise<PodFile> {
  let bytes = 0;
  const counted = (async function* () {
    for await (const chunk of chunks) {
      bytes += chunk.length;
      yield chunk;
    }
  })();
  const file = await readPodStream(counted, name);
  if (sidecar === undefined) return file;
  if (file.kind === 'recording') {
    file.notes.push(`${name}${SIDECAR_SUFFIX} was not used: a recording carries its provenance in its own header`);
    return file;
  }
  const side = sidecarProvenance(sidecar, `${name}${SIDECAR_SUFFIX}`, bytes);
  if (side.note) file.notes.push(side.note);
  return { ...file, provenance: side.provenance };
}

/** Opens a snapshot or recording file; a snapshot's provenance comes from its sidecar (F.nodescope.json). */
export async function openPodFile(path: string, options: ReadPodFileOptions = {}): Promise<PodFile> {
  const limits: PodFileLimits = { ...DEFAULT_POD_FILE_LIMITS, ...options.limits };
  if (path.endsWith(SIDECAR_SUFFIX)) {
    throw new PodFileError({ file: path, problem: 'not-pods', detail: 'this is the provenance sidecar of a snapshot, not the snapshot', next: `Open ${path.slice(0, -SIDECAR_SUFFIX.length)} instead.` });
  }
  let size;
  try {
    const s = await stat(path);
    if (!s.isFile()) throw podFileError(path, 'unreadable', s.isDirectory() ? 'this is a folder, not a file' : 'this is not a regular file');
    size = s.size;
  } catch (err) {
    if (err instanceof PodFileError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw podFileError(path, 'unreadable', code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (err as Error).message, {}, err);
  }
  if (size > limits.maxFileBytes) throw tooLargeFile(path, size, limits.maxFileBytes);
  const stream = createReadStream(path, { highWaterMark: READ_CHUNK, ...(options.signal ? { signal: options.signal } : {}) });
  let file: PodFile;
  try {
    file = await readPodStream(stream, path, { ...options, totalBytes: size });
  } catch (err) {
    if (err instanceof PodFileError) throw err;
    if ((err as Error).name === 'AbortError') throw podFileError(path, 'aborted', 'opening was cancelled', {}, err);
    const code = (err as NodeJS.ErrnoException).code;
    if (code) throw podFileError(path, 'unreadable', (err as Error).message, {}, err);
    throw err;
  } finally {
    stream.destroy();
  }
  if (file.kind === 'recording') return file;
  const side = await readSnapshotSidecar(path, size);
  if (side.note) file.notes.push(side.note);
  return { ...file, provenance: side.provenance };
}
