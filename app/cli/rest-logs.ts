/**
 * `nodescope logs NODE POD --api rest`: a container's log from the kubelet's REST API (`/containerLogs`), for a
 * node read that way. POD is found in the kubelet's `/pods` (namespace/name, a name or a UID, as `get` takes it)
 * and its containers are those of its spec; the kubelet reads the files and sends what kubectl logs prints.
 * Says on stderr where the lines come from with -v, beside every request made (kubelet-connection.ts).
 */
import { asTheyArrive } from '../logs/pod-logs';
import { LogAccessError } from '../logs/log-file-access';
import type { LogReadOptions } from '../logs/log-options';
import type { PodObject } from '../pod/pod-tree';
import type { KubeletRestClient } from '../kubelet-rest/kubelet-rest-client';
import { connectOverSsh } from './kubelet-connection';
import type { NodeCommandOptions } from './node-options';
import { describeReference, findPod, parsePodReference } from './pod-reference';
import { printError } from './terminal-text';
import { UsageError } from './usage-error';

export interface LogLinesOf {
  podName: string;
  lines: AsyncIterable<{ container: string; bytes: Buffer }>;
  close(): Promise<void>;
}

/** Every container the pod's spec names (init, regular, ephemeral), in name order as the files path lists them. */
function specContainers(pod: PodObject): string[] {
  const spec = (pod.spec ?? {}) as PodObject;
  const names = ['initContainers', 'containers', 'ephemeralContainers'].flatMap((k) => (Array.isArray(spec[k]) ? (spec[k] as PodObject[]).map((c) => String(c.name)) : []));
  return [...new Set(names)].sort();
}

export async function restPodLogs(opts: NodeCommandOptions & { extraValues: Record<string, unknown> }, read: LogReadOptions): Promise<LogLinesOf> {
  const v = opts.extraValues;
  if (v.interleave) throw new UsageError('--interleave orders the lines by their times, which the kubelet\'s /containerLogs does not send apart from the text: leave it out, or read the files (leave out --api rest)');
  if (v['log-dir'] !== undefined) throw new UsageError('--log-dir is where the files are read over SSH; with --api rest the kubelet reads its own podLogsDir: leave it out');
  const conn = await connectOverSsh(opts);
  try {
    const client = conn.rest?.client;
    // --api rest always reads through REST: a connection without it is a bug.
    if (!client) throw new Error('the node was not read through the kubelet REST API');
    const ref = opts.args[0]!;
    const { pods } = await client.listPods();
    const hit = findPod(pods, parsePodReference(ref, undefined));
    if (!hit) {
      throw new LogAccessError(`no pod ${describeReference(parsePodReference(ref, undefined).at(-1)!)} on ${opts.node} (the kubelet's /pods)`, '`nodescope pods NODE --api rest` lists the node\'s pods.', 'NOT_FOUND');
    }
    const all = specContainers(hit.pod);
    const chosen = v.container !== undefined ? [String(v.container)] : all.length === 1 || v['all-containers'] ? all : undefined;
    if (!chosen) throw new UsageError(`pod ${hit.namespace}/${hit.name} has several containers: ${all.join(', ')}; choose one with -c, or give --all-containers`);
    const targets = chosen.map((container) => ({ namespace: hit.namespace, pod: hit.name, container, previous: v.previous === true }));
    if (opts.verbose) for (const t of targets) printError(`nodescope: reading ${t.namespace}/${t.pod} container ${t.container} from ${client.containerLogOrigin(t, read)}`);
    return { podName: hit.name, lines: linesOf(client, targets, read), close: conn.close };
  } catch (err) {
    await conn.close();
    throw err;
  }
}

async function* linesOf(client: KubeletRestClient, targets: { namespace: string; pod: string; container: string; previous: boolean }[], read: LogReadOptions): AsyncGenerator<{ container: string; bytes: Buffer }> {
  const stop = new AbortController();
  const stopping = { ...read, signal: read.signal ? AbortSignal.any([read.signal, stop.signal]) : stop.signal };
  const tagged = async function* (t: (typeof targets)[number]) {
    for await (const bytes of client.containerLog(t, stopping)) yield { container: t.container, bytes };
  };
  // kubectl follows several containers at once; otherwise one after another.
  if (read.follow && targets.length > 1) return yield* asTheyArrive(targets.map(tagged), stop);
  for (const t of targets) yield* tagged(t);
}
