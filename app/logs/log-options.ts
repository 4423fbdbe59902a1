/** What a container log read asks for: kubectl logs' options, as the kubelet receives them (PodLogOptions). */
import type { LogStream } from './cri-log-line';

/** A container's log by the names the kubelet's REST API takes: `/containerLogs/{namespace}/{pod}/{container}`. */
export interface KubeletLogTarget {
  namespace: string;
  pod: string;
  container: string;
  /** The instance before the current one (`kubectl logs -p`). */
  previous?: boolean;
}

export interface LogReadOptions {
  /** Prefix each line with its time, as `kubectl logs --timestamps` (RFC3339NanoFixed and a space). */
  timestamps?: boolean;
  /** The last N raw lines of the file (every partial chunk counts); undefined = all. */
  tailLines?: number;
  /** Skip lines older than this (nanoseconds since the epoch). */
  sinceNanos?: bigint;
  /** The `--since` that sinceNanos came from, in whole seconds: a kubelet asked over REST reckons it by its own clock. */
  sinceSeconds?: number;
  /** Stop after this many output bytes, cutting the last line. */
  limitBytes?: number;
  /** Which streams to print (default both, interleaved as written). */
  streams?: readonly LogStream[];
  /** Keep reading as the container writes, across rotations, until `signal` aborts. */
  follow?: boolean;
  /** Read rotated files too (`N.log.<time>`, `.gz`) where the range needs them; the kubelet never does. */
  includeRotated?: boolean;
  signal?: AbortSignal;
  /** How often a follower looks for new bytes (default 1 s, the kubelet's forced re-check). */
  pollIntervalMs?: number;
}

/** `kubectl logs --since-time T`: kubectl sends it as a metav1.Time, which carries whole seconds only. */
export function sinceTimeNanos(epochMs: number): bigint {
  return BigInt(Math.floor(epochMs / 1000)) * 1_000_000_000n;
}

/** `kubectl logs --since D`: D rounded to whole seconds before now; undefined when that rounds to 0 (kubectl sends nothing then). */
export function sinceSecondsNanos(durationMs: number, nowMs: number): bigint | undefined {
  const seconds = Math.round(durationMs / 1000);
  if (seconds <= 0) return undefined;
  return BigInt(nowMs) * 1_000_000n - BigInt(seconds) * 1_000_000_000n;
}

/** `--since D` as a read asks for it: the instant for files, the whole seconds for a kubelet asked over REST. */
export function sinceDuration(durationMs: number, nowMs: number): Pick<LogReadOptions, 'sinceNanos' | 'sinceSeconds'> {
  const sinceNanos = sinceSecondsNanos(durationMs, nowMs);
  return sinceNanos === undefined ? {} : { sinceNanos, sinceSeconds: Math.round(durationMs / 1000) };
}
