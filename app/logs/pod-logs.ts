/**
 * Several containers' logs of one pod: one after another as `kubectl logs --all-containers` prints them, or
 * interleaved by time for a single view (a follower's lines as they arrive, since waiting for the quietest
 * container to order them would hold the others back).
 */
import type { ContainerLogs } from './container-logs';
import type { WrittenLine } from './kubelet-log-writer';
import type { LogReadOptions } from './log-options';
import type { PodLogDir } from './pod-log-layout';

export interface PodLogLine extends WrittenLine {
  container: string;
}

export type ContainerOrder = 'sequential' | 'interleaved';

async function* tagged(logs: ContainerLogs, pod: PodLogDir, container: string, previous: boolean, options: LogReadOptions): AsyncGenerator<PodLogLine> {
  for await (const w of logs.read({ pod, container, previous }, options)) yield { ...w, container };
}

export async function* readPodLogs(logs: ContainerLogs, pod: PodLogDir, containers: string[], previous: boolean, options: LogReadOptions, order: ContainerOrder): AsyncGenerator<PodLogLine> {
  const stop = new AbortController();
  const read = { ...options, signal: options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal };
  const sources = containers.map((c) => tagged(logs, pod, c, previous, read));
  // kubectl follows several containers at once and prints lines as they come.
  if (options.follow && sources.length > 1) return yield* asTheyArrive(sources, stop);
  if (order === 'sequential' || sources.length === 1) {
    for (const s of sources) yield* s;
    return;
  }
  yield* byTime(sources);
}

/** A k-way merge on the lines' times; equal times keep the containers' order. */
async function* byTime(sources: AsyncGenerator<PodLogLine>[]): AsyncGenerator<PodLogLine> {
  const heads = await Promise.all(sources.map((s) => s.next()));
  for (;;) {
    let best = -1;
    for (let i = 0; i < heads.length; i++) {
      const h = heads[i]!;
      if (h.done) continue;
      if (best < 0 || h.value.line.nanos < (heads[best]!.value as PodLogLine).line.nanos) best = i;
    }
    if (best < 0) return;
    yield heads[best]!.value as PodLogLine;
    heads[best] = await sources[best]!.next();
  }
}

/**
 * Several followed logs as one, each line as it comes. When it ends early (one source failed, the reader
 * stopped) `stop` aborts the sources' reads: a source's return waits for its pending next, which for a quiet
 * container's follow would be its next line, so the failure was never told.
 */
export async function* asTheyArrive<T>(sources: AsyncGenerator<T>[], stop: AbortController): AsyncGenerator<T> {
  const pending = new Map(sources.map((s, i) => [i, s.next().then((r) => ({ i, r }))]));
  try {
    while (pending.size) {
      const { i, r } = await Promise.race(pending.values());
      if (r.done) {
        pending.delete(i);
        continue;
      }
      pending.set(i, sources[i]!.next().then((r2) => ({ i, r: r2 })));
      yield r.value;
    }
  } finally {
    stop.abort();
    await Promise.allSettled(sources.map((s) => s.return(undefined)));
  }
}
