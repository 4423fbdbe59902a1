/**
 * What bounds the memory a pod file takes is what is kept of it, not its size: 484 MB of tiny pods (15 M of
 * them) fill more heap than 2 GiB of real ones. Opening stops, with how far it got and what to do, when
 * the pods kept pass a count, or when the heap they fill passes a share of what the process may use (a
 * shape of pod whose objects outweigh its text), before memory runs out rather than by it.
 */
import { PodFileError } from './pod-file-error';

/** The heap now: bytes in use and the most this process may use. */
export interface HeapUse {
  used: number;
  limit: number;
}

export interface KeptPodsLimits {
  /** Most pods (a recording: pods and events) kept from one file. */
  maxPods: number;
  /** Share of the heap limit the pods read may fill before opening stops (0..1). */
  maxHeapShare: number;
}

const NEXT =
  "Split it into smaller files and open them one by one, e.g. jq -c '.items[]' FILE | split -l 100000 - part- (each part is NDJSON), or export fewer pods (one namespace, or a --mask that keeps less of each).";

const mb = (n: number) => `${Math.round(n / 1024 ** 2).toLocaleString('en-US')} MB`;

export class KeptPodsBudget {
  private kept = 0;

  constructor(
    private readonly file: string,
    private readonly limits: KeptPodsLimits,
    /** Reads the heap; undefined where it cannot be read (then only the count bounds). */
    private readonly heap: (() => HeapUse) | undefined,
  ) {}

  /** One more pod is kept; `bytes` is how far into the file it ends. */
  add(bytes: number, totalBytes?: number): void {
    if (++this.kept <= this.limits.maxPods) return;
    throw new PodFileError({
      file: this.file,
      problem: 'too-many',
      detail: `the file holds more than ${this.limits.maxPods.toLocaleString('en-US')} pods (${this.kept.toLocaleString('en-US')} read, ${progress(bytes, totalBytes)}); Nodescope keeps a file's pods in memory and opens at most ${this.limits.maxPods.toLocaleString('en-US')}`,
      next: NEXT,
    });
  }

  /** Called as the file is read (every chunk): stops before the pods read fill the heap. */
  checkHeap(bytes: number, totalBytes?: number): void {
    if (!this.heap) return;
    const { used, limit } = this.heap();
    if (used <= limit * this.limits.maxHeapShare) return;
    throw new PodFileError({
      file: this.file,
      problem: 'too-many',
      detail: `the ${this.kept.toLocaleString('en-US')} pods read (${progress(bytes, totalBytes)}) fill ${mb(used)} of the ${mb(limit)} of memory this process may use: the rest would not fit`,
      next: NEXT,
    });
  }
}

function progress(bytes: number, totalBytes: number | undefined): string {
  return totalBytes === undefined ? `up to byte ${bytes.toLocaleString('en-US')}` : `${mb(bytes)} of the file's ${mb(totalBytes)}`;
}
