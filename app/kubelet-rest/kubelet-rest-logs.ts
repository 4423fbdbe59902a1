/**
 * Container logs through the kubelet's REST API, for a node read that way: GET
 * `/containerLogs/{namespace}/{pod}/{container}` with the read's options as the kubelet's own query parameters
 * (v1 PodLogOptions). The kubelet runs its own reader (the one app/logs follows on files) and sends what
 * `kubectl logs` prints, which is handed on line by line as it arrives; a follow ends when the kubelet ends it
 * (the container stopped) or the caller aborts. Pod data only ever goes into the path encoded, one segment each.
 */
import { KubeletError } from '../kubelet/kubelet-error';
import { LineSplitter } from '../logs/line-splitter';
import { LogAccessError } from '../logs/log-file-access';
import type { KubeletLogTarget, LogReadOptions } from '../logs/log-options';
import { restStatusError, type RestErrorContext } from './kubelet-rest-errors';
import type { KubeletRestClientOptions } from './kubelet-rest-client';

/** Go's time.RFC3339 of whole seconds: what a metav1.Time query parameter carries. */
const rfc3339Seconds = (nanos: bigint) => new Date(Number(nanos / 1_000_000_000n) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The request path: each name one encoded segment, the options as PodLogOptions' query parameters. */
export function containerLogsPath(t: KubeletLogTarget, o: LogReadOptions): string {
  const q = new URLSearchParams();
  if (o.follow) q.set('follow', 'true');
  if (t.previous) q.set('previous', 'true');
  if (o.timestamps) q.set('timestamps', 'true');
  if (o.tailLines !== undefined && o.tailLines >= 0) q.set('tailLines', String(o.tailLines));
  if (o.limitBytes !== undefined) q.set('limitBytes', String(o.limitBytes));
  // --since as the kubelet reckons it by its own clock; --since-time as the instant (whole seconds).
  if (o.sinceSeconds !== undefined) q.set('sinceSeconds', String(o.sinceSeconds));
  else if (o.sinceNanos !== undefined) q.set('sinceTime', rfc3339Seconds(o.sinceNanos));
  if (o.streams?.length === 1) q.set('stream', o.streams[0] === 'stdout' ? 'Stdout' : 'Stderr');
  const query = q.toString();
  return `/containerLogs/${[t.namespace, t.pod, t.container].map(encodeURIComponent).join('/')}${query ? `?${query}` : ''}`;
}

/** The client's transport, and for messages the node, the port and the credential in words. */
export type RestLogsOptions = Pick<KubeletRestClientOptions, 'transport' | 'host' | 'port' | 'tls' | 'credential' | 'tokenAuth'>;

/** Where the lines come from, in words (the CLI's -v and the Logs tab say it). */
export function restLogsOrigin(o: Pick<RestLogsOptions, 'port' | 'tls'>, t: KubeletLogTarget, read: LogReadOptions): string {
  return `the kubelet REST API: GET ${o.tls ? 'https' : 'http'}://127.0.0.1:${o.port}${containerLogsPath(t, read)}`;
}

/** What the kubelet's answer other than 200 means: its own words for a missing pod, container or instance. */
function logsError(status: number, body: string, t: KubeletLogTarget, ctx: RestErrorContext): Error {
  const text = body.trim().slice(0, 500);
  if (status === 404 || status === 400) {
    // 404: the pod or container is not in the kubelet's pod manager; 400: its reader failed (no previous
    // instance, a container that has not started, a log gone).
    return new LogAccessError(
      `the kubelet has no log for ${t.namespace}/${t.pod} container ${t.container}${t.previous ? ' (previous instance)' : ''}: ${status} ${text} (${ctx.where})`,
      status === 404 ? "The pod or container is not on this node (any more): `nodescope pods NODE --api rest` lists the node's pods." : t.previous ? 'The container has no previous instance on the node: leave out --previous.' : 'A container that has not started has no log yet; try again once it runs.',
      'NOT_FOUND',
    );
  }
  if (status === 422) return new LogAccessError(`the kubelet refused the options of ${ctx.where}: 422 ${text}`, 'Check --tail, --since and --limit-bytes (one of --since and --since-time; --limit-bytes at least 1).', 'BAD_INPUT');
  if (status === 405) return new KubeletError('UNIMPLEMENTED', `The kubelet serves no container logs: 405 ${text} (${ctx.where})`, 'Its debugging handlers are off (enableDebuggingHandlers: false): read the log files over SSH instead (leave out --api rest).');
  return restStatusError(status, body, ctx);
}

/**
 * The most of one line held before it is handed on in pieces: the kubelet joins a container's partial chunks
 * without end for one that prints no newline, and a follow must not hold all of that.
 */
const LINE_HELD_MAX = 1 << 20;

/** The log's lines (each with its `\n`, a cut last one without; a line longer than LINE_HELD_MAX in pieces) as the kubelet sends them. */
export async function* readRestContainerLog(o: RestLogsOptions, t: KubeletLogTarget, read: LogReadOptions): AsyncGenerator<Buffer> {
  if (read.includeRotated) {
    throw new LogAccessError('the kubelet\'s /containerLogs reads only the live log file, never the rotated ones', 'Leave out --include-rotated, or read the files over SSH (leave out --api rest).', 'BAD_INPUT');
  }
  const path = containerLogsPath(t, read);
  const where = `${o.tls ? 'https' : 'http'}://127.0.0.1:${o.port}${path.split('?')[0]} on ${o.host}`;
  // The lines go to a terminal or a window at its pace; a follow waits for lines as long as they take.
  let answer;
  try {
    answer = await o.transport.stream(path, { ...(read.signal ? { signal: read.signal } : {}), quiet: read.follow === true, paced: true });
  } catch (err) {
    // Stopped by its caller before the kubelet answered: ended, as a read of the files ends.
    if (read.signal?.aborted) return;
    throw err;
  }
  try {
    if (answer.status !== 200) {
      const parts: Buffer[] = [];
      for await (const b of answer.body) parts.push(b);
      throw logsError(answer.status, Buffer.concat(parts).toString('utf8'), t, { where, credential: o.credential, tokenAuth: o.tokenAuth });
    }
    const split = new LineSplitter(LINE_HELD_MAX);
    for await (const chunk of answer.body) yield* split.push(chunk);
    const rest = split.takeRest();
    if (rest.length) yield rest;
  } finally {
    answer.close();
  }
}
