/**
 * Prints a large node's pods on worker threads, for export and `pods -o json|ndjson`: printing is most of
 * the work (a 30,000-pod List is ~460 MB of JSON), and the list arrives faster than one thread prints it.
 * Pods' bytes go in batches to workers (pod-print-worker.ts; one fewer than the cores), and this thread
 * prints a batch itself whenever they are all busy. Each batch is printed as a part of the List, and the
 * parts are added to the List (PodBytesListPrinter.addPrinted) in the order the pods came: the output is
 * the same, byte for byte, as printing them one by one here.
 *
 * A list smaller than PARALLEL_FROM_BYTES (its size comes before its pods: `expect`) is printed here, as is
 * everything when run from the TypeScript sources: workers run the built CLI's dist/cli/pod-print-worker.js.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { PodDecodeError } from '../pod/decode';
import { printListPart, type PodBytesListPrinter } from '../pod/kubectl-json';
import { unknownFieldsWarningForBytes } from './unknown-fields-warning';

/** A batch for a worker: pods' bytes back to back, each ending at `ends[i]`; `first` is the first pod's index. */
export interface PrintBatch {
  first: number;
  ndjson: boolean;
  showManagedFields: boolean;
  bytes: Uint8Array;
  ends: number[];
}

/** A printed batch: `part` holds the `printed` of the batch's `pods` that decoded; `input` is the batch's bytes. */
export interface PrintedBatch {
  part: Uint8Array;
  input: Uint8Array;
  pods: number;
  printed: number;
  /** Each pod that did not decode, as PodDecodeError's constructor arguments. */
  errors: ConstructorParameters<typeof PodDecodeError>[];
  warnings: string[];
}

/** What a worker is sent: a batch to print, or a part's buffer back to print the next ones into. */
export type ToPrintWorker = { batch: PrintBatch } | { spare: ArrayBuffer };

/**
 * Prints a batch as a part of a kubectl List (or as NDJSON lines) into `spare` (a larger buffer when it does
 * not fit), with the pods that did not decode and a warning line per pod with fields unknown to this version.
 * Buffers go back and forth between threads and are reused: fresh ones for every batch cost more in page
 * faults and garbage collection than the printing gains from a second thread.
 */
export function printBatch(batch: PrintBatch, spare: ArrayBuffer | undefined): PrintedBatch {
  const pods: Uint8Array[] = [];
  let start = 0;
  for (const end of batch.ends) {
    pods.push(batch.bytes.subarray(start, end));
    start = end;
  }
  const result = printListPart(pods, new Uint8Array(spare ?? new ArrayBuffer(PART_BYTES)), {
    ndjson: batch.ndjson,
    showManagedFields: batch.showManagedFields,
    labelOf: (i) => `pods[${batch.first + i}]`,
  });
  return {
    part: result.part,
    input: batch.bytes,
    pods: pods.length,
    printed: pods.length - result.errors.length,
    errors: result.errors.map((e) => [e.pod, e.offset, e.path, e.reason, e.label, e.uid]),
    warnings: result.unknownFields.map(({ index, fields }) => unknownFieldsWarningForBytes(pods[index]!, fields)),
  };
}

/** Lists printed on workers: from about 1,000 pods, a list takes longer to print than workers take to start. */
export const PARALLEL_FROM_BYTES = 3 << 20;
/** Pod bytes per batch: about 300 pods, some 20 ms of printing. */
const BATCH_BYTES = 1 << 20;
/** Room for a batch's part: kubectl's JSON of a pod is about five times its bytes. */
const PART_BYTES = 8 << 20;
/** Batches given to each worker at once: one being printed, one waiting, so it never idles. */
const PER_WORKER = 2;

/** The worker beside the built CLI's chunks; none when running from the sources (a .ts file here). */
const WORKER_URL = import.meta.url.endsWith('.js') ? new URL('./pod-print-worker.js', import.meta.url) : null;

interface PrintWorker {
  worker: Worker;
  /** Answers awaited from it, in the order its batches were sent. */
  pending: { resolve(b: PrintedBatch): void; reject(err: unknown): void }[];
}

export class ParallelPodPrinter {
  /** Workers to start: this thread prints too (when they are all busy), besides reading the list. */
  private readonly parallelism = WORKER_URL ? Math.min(availableParallelism() - 1, 3) : 0;
  private workers: PrintWorker[] = [];
  private onWorkers = false;
  /** Given up (close): parts still coming back are dropped, the output may be gone. */
  private closed = false;
  private seen = 0;
  private batch: { first: number; bytes: Uint8Array; size: number; ends: number[] } | null = null;
  /** Parts are added to the List through this chain, in the order their batches were sent. */
  private added: Promise<void> = Promise.resolve();
  private inFlight = 0;
  private failure: { err: unknown } | null = null;
  private onRoom: { resolve(): void; reject(err: unknown): void } | null = null;
  /** Buffers to reuse: for batches' bytes, and for the parts this thread prints. */
  private readonly spareInputs: ArrayBuffer[] = [];
  private sparePart: ArrayBuffer | undefined;

  /** `warn`: a line for stderr about a pod with fields unknown to this version. */
  constructor(
    private readonly printer: PodBytesListPrinter,
    private readonly options: { ndjson: boolean; showManagedFields: boolean },
    private readonly warn: (line: string) => void,
  ) {}

  /** The list's size in bytes, before its first pod: a large one is printed on workers, started now. */
  expect(bytes: number): void {
    if (this.closed || this.seen > 0 || bytes < PARALLEL_FROM_BYTES || this.parallelism < 1) return;
    this.onWorkers = true;
    while (this.workers.length < this.parallelism) this.startWorker();
  }

  /** One pod's bytes (a view, valid during the call only). */
  add(bytes: Uint8Array): void {
    this.seen++;
    if (!this.onWorkers) {
      const fields = this.printer.add(bytes);
      if (fields.length) this.warn(unknownFieldsWarningForBytes(bytes, fields));
      return;
    }
    if (this.batch && this.batch.size + bytes.length > this.batch.bytes.length) this.send();
    if (!this.batch) {
      const spare = bytes.length <= BATCH_BYTES ? this.spareInputs.pop() : undefined;
      this.batch = { first: this.seen - 1, bytes: new Uint8Array(spare ?? new ArrayBuffer(Math.max(BATCH_BYTES, bytes.length))), size: 0, ends: [] };
    }
    this.batch.bytes.set(bytes, this.batch.size);
    this.batch.size += bytes.length;
    this.batch.ends.push(this.batch.size);
  }

  /** A promise to wait for before handing on more pods (the workers have all they can take), or null. */
  wait(): Promise<void> | null {
    if (this.failure) return Promise.reject(this.failure.err);
    if (this.inFlight < this.parallelism * PER_WORKER + 1) return null;
    return new Promise((resolve, reject) => (this.onRoom = { resolve, reject }));
  }

  /** Prints what is left and ends the List; returns its end as PodBytesListPrinter.end does. */
  async end(): Promise<ReturnType<PodBytesListPrinter['end']>> {
    if (this.batch) this.send();
    await this.added;
    if (this.failure) throw this.failure.err;
    return this.printer.end();
  }

  /** Stops the workers (also when the printing was given up), and the reading waiting for them. */
  close(): void {
    this.closed = true;
    for (const { worker } of this.workers) void worker.terminate();
    this.workers = [];
    this.onRoom?.reject(new Error('the printing was stopped'));
    this.onRoom = null;
  }

  private send(): void {
    const { first, bytes, size, ends } = this.batch!;
    this.batch = null;
    const message: PrintBatch = { first, ndjson: this.options.ndjson, showManagedFields: this.options.showManagedFields, bytes: bytes.subarray(0, size), ends };
    const worker = this.leastBusy();
    let answer: Promise<PrintedBatch>;
    let from: PrintWorker | null = null;
    if (worker.pending.length >= PER_WORKER) {
      // The workers have all they can take: this thread prints the batch meanwhile rather than wait.
      answer = Promise.resolve(printBatch(message, this.sparePart));
      this.sparePart = undefined;
    } else {
      from = worker;
      answer = new Promise<PrintedBatch>((resolve, reject) => worker.pending.push({ resolve, reject }));
      worker.worker.postMessage({ batch: message } satisfies ToPrintWorker, [message.bytes.buffer as ArrayBuffer]);
    }
    // Handled here at once: the chain below may reach it only later, and a failure must not go unhandled.
    answer.catch(() => undefined);
    this.inFlight++;
    this.added = this.added.then(() =>
      answer.then(
        (b) => {
          if (this.closed) return;
          try {
            if (!this.failure) this.addPart(b, from);
          } catch (err) {
            // The sink failed (a --file on a full disk): a failure of the printing like a worker's, which stops the
            // reading at its next wait. Thrown out of this chain, nobody would await it before the list's end.
            this.failure = { err };
          }
          this.done();
        },
        (err: unknown) => {
          this.failure ??= { err };
          this.done();
        },
      ),
    );
  }

  /** Adds a printed batch to the List, in its turn, and hands its buffers back to be printed and read into again. */
  private addPart(b: PrintedBatch, from: PrintWorker | null): void {
    this.printer.addPrinted(b.part, b.pods, b.printed, b.errors.map((args) => new PodDecodeError(...args)));
    for (const line of b.warnings) this.warn(line);
    // Written (the sink copies or writes at once): the buffers go back.
    const part = b.part.buffer as ArrayBuffer;
    if (!from) this.sparePart = part;
    else if (this.workers.includes(from)) from.worker.postMessage({ spare: part } satisfies ToPrintWorker, [part]);
    this.spareInputs.push(b.input.buffer as ArrayBuffer);
  }

  private done(): void {
    this.inFlight--;
    const wake = this.onRoom;
    this.onRoom = null;
    wake?.resolve();
  }

  /** The worker with the fewest batches waiting. */
  private leastBusy(): PrintWorker {
    return this.workers.reduce((a, b) => (b.pending.length < a.pending.length ? b : a));
  }

  private startWorker(): void {
    const w: PrintWorker = { worker: new Worker(WORKER_URL!), pending: [] };
    w.worker.on('message', (b: PrintedBatch) => w.pending.shift()?.resolve(b));
    w.worker.on('error', (err) => {
      for (const p of w.pending.splice(0)) p.reject(err);
    });
    w.worker.on('exit', (code) => {
      for (const p of w.pending.splice(0)) p.reject(new Error(`a printing worker stopped (exit code ${code})`));
    });
    this.workers.push(w);
  }
}
