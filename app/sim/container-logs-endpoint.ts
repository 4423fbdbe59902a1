/**
 * The simulated kubelet's `GET /containerLogs/{namespace}/{pod}/{container}` (REST mode), answered as the
 * kubelet's server.go `getContainerLogs` answers: the query decoded into PodLogOptions (400 when it does not
 * decode, 422 when it is invalid), the pod looked up by namespace and name (404), the container in its spec
 * (404), the container's status checked as `validateContainerLogStatus` does (400 with its words), then the CRI
 * files the simulator writes (sim-container-logs.ts) read by the kubelet's reader (app/logs, which follows
 * cri-client): the live file only, a follow streaming until the container is replaced or the client leaves.
 */
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { containerLogs } from '../logs/container-logs';
import { localFileAccess } from '../logs/local-file-access';
import { sinceSecondsNanos, sinceTimeNanos, type LogReadOptions } from '../logs/log-options';
import type { PodObject } from '../pod/pod-tree';
import { parseRfc3339 } from '../util/rfc3339';
import type { PodStore } from './pod-store';
import { allStatuses } from './sim-container-logs';

export interface ContainerLogsEndpointOptions {
  /** Where the simulator writes its pods' CRI log files (the kubelet's podLogsDir); none: no container has a log. */
  logDir?: string;
  /** How often a follow looks for new lines (the kubelet is told by fsnotify; default 100 ms). */
  pollIntervalMs?: number;
}

class QueryError extends Error {
  constructor(readonly status: 400 | 422) {
    super(status === 400 ? '{"message": "Unable to decode query."}' : '{"message": "Invalid request."}');
  }
}

/** Go's strconv.ParseBool, as the query codec decodes a bool. */
function bool(v: string | null): boolean | undefined {
  if (v === null) return undefined;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)) return false;
  throw new QueryError(400);
}

function int(v: string | null): number | undefined {
  if (v === null) return undefined;
  if (!/^[+-]?\d+$/.test(v)) throw new QueryError(400);
  return Number(v);
}

/** PodLogOptions from the query (with the legacy `tail=N|all`), checked as ValidatePodLogOptions checks it. */
export function podLogOptions(query: URLSearchParams, nowMs: number): { previous: boolean; read: LogReadOptions } {
  const tail = query.get('tail');
  const tailLines = int(tail !== null ? (tail === 'all' ? null : tail) : query.get('tailLines'));
  const sinceSeconds = int(query.get('sinceSeconds'));
  const limitBytes = int(query.get('limitBytes'));
  const sinceTimeText = query.get('sinceTime');
  const sinceTime = sinceTimeText === null ? undefined : parseRfc3339(sinceTimeText);
  if (sinceTimeText !== null && sinceTime === undefined) throw new QueryError(400);
  const follow = bool(query.get('follow')) ?? false;
  const previous = bool(query.get('previous')) ?? false;
  const timestamps = bool(query.get('timestamps')) ?? false;
  // `stream` needs the PodLogsQuerySplitStreams gate, off by default: a request naming it is invalid.
  if ((tailLines !== undefined && tailLines < 0) || (sinceSeconds !== undefined && sinceSeconds < 1) || (limitBytes !== undefined && limitBytes < 1)) throw new QueryError(422);
  if ((sinceSeconds !== undefined && sinceTime !== undefined) || query.has('stream')) throw new QueryError(422);
  const read: LogReadOptions = { follow, timestamps };
  if (tailLines !== undefined) read.tailLines = tailLines;
  if (limitBytes !== undefined) read.limitBytes = limitBytes;
  if (sinceSeconds !== undefined) read.sinceNanos = sinceSecondsNanos(sinceSeconds * 1000, nowMs)!;
  if (sinceTime !== undefined) read.sinceNanos = sinceTimeNanos(sinceTime);
  return { previous, read };
}

/** The kubelet's validateContainerLogStatus: an error in its words, or undefined when there is a log to read. */
function statusProblem(pod: PodObject, container: string, previous: boolean): string | undefined {
  const name = pod.metadata ? ((pod.metadata as PodObject).name as string) : '';
  // The kubelet looks in the regular containers' statuses first; a name is in one list only.
  const c = allStatuses(pod).find((s) => s.name === container);
  if (!c) return `container ${JSON.stringify(container)} in pod ${JSON.stringify(name)} is not available`;
  const last = (c.lastState ?? {}) as PodObject;
  const state = (c.state ?? {}) as PodObject;
  if (previous) return last.terminated ? undefined : `previous terminated container ${JSON.stringify(container)} in pod ${JSON.stringify(name)} not found`;
  if (state.running || state.terminated || last.terminated) return undefined;
  const reason = ((state.waiting ?? {}) as PodObject).reason as string | undefined;
  if (reason === 'ErrImagePull') return `container ${JSON.stringify(container)} in pod ${JSON.stringify(name)} is waiting to start: image can't be pulled`;
  if (reason === 'ImagePullBackOff') return `container ${JSON.stringify(container)} in pod ${JSON.stringify(name)} is waiting to start: trying and failing to pull image`;
  return `container ${JSON.stringify(container)} in pod ${JSON.stringify(name)} is waiting to start: ${reason ?? ''}`;
}

function inSpec(pod: PodObject, container: string): boolean {
  const spec = (pod.spec ?? {}) as PodObject;
  return ['containers', 'initContainers', 'ephemeralContainers'].some((k) => Array.isArray(spec[k]) && (spec[k] as PodObject[]).some((c) => c.name === container));
}

function text(res: ServerResponse, status: number, body: string): number {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
  return status;
}

/** Answers the request; resolves with the status sent once the answer ends (a follow: when it is left). */
export async function serveContainerLogs(res: ServerResponse, url: URL, store: PodStore, options: ContainerLogsEndpointOptions): Promise<number> {
  const parts = url.pathname.slice('/containerLogs/'.length).split('/').map(decodeURIComponent);
  const [namespace = '', podName = '', container = ''] = parts;
  if (!podName) return text(res, 400, '{"message": "Missing podID."}');
  if (!container) return text(res, 400, '{"message": "Missing container name."}');
  if (!namespace) return text(res, 400, '{"message": "Missing podNamespace."}');
  let request;
  try {
    request = podLogOptions(url.searchParams, Date.now());
  } catch (err) {
    if (err instanceof QueryError) return text(res, err.status, err.message);
    throw err;
  }
  const pod = store.list().find((p) => (p.metadata as PodObject).namespace === namespace && (p.metadata as PodObject).name === podName) as PodObject | undefined;
  if (!pod) return text(res, 404, `pod ${JSON.stringify(podName)} does not exist`);
  if (!inSpec(pod, container)) return text(res, 404, `container ${JSON.stringify(container)} not found in pod ${JSON.stringify(podName)}`);
  const problem = statusProblem(pod, container, request.previous);
  if (problem) return text(res, 400, problem);

  const left = new AbortController();
  res.once('close', () => left.abort());
  const uid = (pod.metadata as PodObject).uid as string;
  const dir = { namespace, name: podName, uid, path: join(options.logDir ?? '/nonexistent', `${namespace}_${podName}_${uid}`) };
  const read: LogReadOptions = { ...request.read, signal: left.signal, pollIntervalMs: options.pollIntervalMs ?? 100 };
  const lines = containerLogs(localFileAccess())
    .read({ pod: dir, container, previous: request.previous }, read)
    [Symbol.asyncIterator]();
  let first;
  try {
    first = await lines.next();
  } catch (err) {
    // Nothing written yet: the kubelet answers a failed read with 400 and the error's text.
    return text(res, 400, (err as Error).message);
  }
  res.writeHead(200, { 'Transfer-Encoding': 'chunked' });
  try {
    for (let r = first; !r.done && !left.signal.aborted; r = await lines.next()) {
      if (!res.write(r.value.bytes)) {
        // Each wait takes its listeners off again: a long follow to a slow reader waits many times.
        await new Promise<void>((resolve) => {
          const done = () => {
            res.off('drain', done);
            left.signal.removeEventListener('abort', done);
            resolve();
          };
          res.once('drain', done);
          left.signal.addEventListener('abort', done, { once: true });
        });
      }
    }
  } catch {
    // Headers are sent: a read that fails now ends the answer, as the kubelet's does.
  } finally {
    await lines.return?.(undefined);
    res.end();
  }
  return 200;
}
