/**
 * Reads a YAML pod file on a worker thread (yaml-pod-worker.ts). YAML is parsed whole, in one block, and
 * takes many times the file's size in memory: on the app core's or the browser-mode server's event loop a
 * 2 MB file stalled every live watch for seconds. Off it, the loop only takes the pods in, a batch at a
 * time; the worker's own heap is capped, so a file that needs more fails alone.
 */
import { Worker } from 'node:worker_threads';
import type { DecodedPod } from '../pod/pod-tree';
import { PodFileError, type PodFileErrorDetails } from './pod-file-error';
import type { YamlPods } from './read-pod-yaml';

export interface ToYamlWorker {
  bytes: Uint8Array;
  name: string;
}

export type FromYamlWorker = { pods: DecodedPod[] } | { notes: string[] } | { error: PodFileErrorDetails };

/** The worker's heap: YAML takes up to ~30 times its text, and YAML files are at most maxYamlBytes. */
const WORKER_HEAP_MB = 1536;

/**
 * Built bundles carry the worker as an entry of its own beside their code, with their extension (the CLI's
 * dist/cli/yaml-pod-worker.js, the app's dist/main/yaml-pod-worker.mjs); run from the sources, a small
 * module compiles it with tsx first.
 */
const ext = import.meta.url.slice(import.meta.url.lastIndexOf('.'));
const WORKER_URL = new URL(ext === '.ts' ? './yaml-pod-worker-from-sources.mjs' : `./yaml-pod-worker${ext}`, import.meta.url);

export function readPodYamlOffThread(bytes: Uint8Array, name: string, signal?: AbortSignal): Promise<YamlPods> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_URL, { workerData: { bytes, name } satisfies ToYamlWorker, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    const pods: DecodedPod[] = [];
    let settled = false;
    const settle = (done: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', abort);
      void worker.terminate();
      done();
    };
    const abort = () => settle(() => reject(new PodFileError({ file: name, problem: 'aborted', detail: 'opening was cancelled', next: 'Open it again when you are ready.' })));
    signal?.addEventListener('abort', abort, { once: true });
    worker.on('message', (message: FromYamlWorker) => {
      if ('pods' in message) for (const pod of message.pods) pods.push(pod);
      else if ('notes' in message) settle(() => resolve({ pods, notes: message.notes }));
      else settle(() => reject(new PodFileError(message.error)));
    });
    worker.on('error', (err: Error & { code?: string }) => {
      if (err.code !== 'ERR_WORKER_OUT_OF_MEMORY') return settle(() => reject(err));
      settle(() =>
        reject(
          new PodFileError({
            file: name,
            problem: 'too-many',
            detail: `reading this YAML needs more than the ${WORKER_HEAP_MB} MB of memory its reader may use`,
            next: 'Save the pods as JSON instead (kubectl get pods -o json > pods.json), which Nodescope reads as it streams in, or split the file.',
          }),
        ),
      );
    });
    worker.on('exit', (code) => settle(() => reject(new Error(`the YAML reader stopped (exit code ${code}) before it was done with ${name}`))));
  });
}
