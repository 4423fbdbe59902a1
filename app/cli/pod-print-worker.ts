/**
 * A worker thread of ParallelPodPrinter (parallel-pod-printer.ts): prints each batch it is sent (printBatch),
 * in the order they came, and hands the part and the batch's bytes back, moved, not copied. Parts' buffers
 * come back once written, to print the next batches into.
 */
import { parentPort } from 'node:worker_threads';
import { printBatch, type ToPrintWorker } from './parallel-pod-printer';

const spares: ArrayBuffer[] = [];
parentPort!.on('message', (message: ToPrintWorker) => {
  if ('spare' in message) {
    spares.push(message.spare);
    return;
  }
  const printed = printBatch(message.batch, spares.pop());
  parentPort!.postMessage(printed, [printed.part.buffer as ArrayBuffer, printed.input.buffer as ArrayBuffer]);
});
