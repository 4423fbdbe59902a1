/**
 * A worker thread of readPodYamlOffThread (read-pod-yaml-off-thread.ts): reads one YAML pod file's bytes
 * (readPodYaml) and sends its pods back in batches, then its notes, or the PodFileError that stopped it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PodFileError } from './pod-file-error';
import { readPodYaml } from './read-pod-yaml';
import type { FromYamlWorker, ToYamlWorker } from './read-pod-yaml-off-thread';

/** Pods a message: each message is taken apart on the caller's event loop, so none is long. */
const BATCH = 200;

const { bytes, name } = workerData as ToYamlWorker;
const send = (message: FromYamlWorker) => parentPort!.postMessage(message);
try {
  const read = readPodYaml(bytes, name);
  for (let i = 0; i < read.pods.length; i += BATCH) send({ pods: read.pods.slice(i, i + BATCH) });
  send({ notes: read.notes });
} catch (err) {
  if (!(err instanceof PodFileError)) throw err;
  const { file, problem, detail, offset, line, expected, nextStep } = err;
  send({ error: { file, problem, detail, next: nextStep, ...(offset !== undefined ? { offset } : {}), ...(line !== undefined ? { line } : {}), ...(expected !== undefined ? { expected } : {}) } });
}
