/**
 * A KubeletClient over the kubelet's REST API, so every node command and the pod watch work on any
 * kubelet: listPods reads `/pods`; watchPods polls it at an interval and turns the differences (by UID
 * and content) into the ADDED / MODIFIED / DELETED events the Pods API watch sends, the replay ended by
 * INITIAL_SYNC_COMPLETE as on the shipped shape. Also what only REST has: CPU and memory
 * (`/stats/summary`), probe results (`/metrics/probes`) and what the runtime runs (`/runningpods/`).
 */
import { taken, type KubeletClient, type PodIntake, type PodList, type PodStream, type WatchMessage } from '../kubelet/kubelet-client';
import { EventQueue } from '../kubelet/event-queue';
import { KubeletError, toKubeletError } from '../kubelet/kubelet-error';
import { podSetChanges } from '../kubelet/pod-set-changes';
import type { HeldPod, ReceivedPod } from '../kubelet/received-pod';
import type { FieldMask } from '../mask/field-mask';
import type { PodDecodeError } from '../pod/decode';
import { isSshError } from '../ssh/ssh-errors';
import { wakeableSleep } from '../util/wakeable-sleep';
import type { KubeletLogTarget, LogReadOptions } from '../logs/log-options';
import { readRestContainerLog, restLogsOrigin } from './kubelet-rest-logs';
import { readRestPodList } from './kubelet-rest-pods';
import { restStatusError } from './kubelet-rest-errors';
import type { RestTransport } from './kubelet-rest-transport';
import { lastResults, parseProbeMetrics, type ProbeTable } from './probe-metrics';
import { parseStatsSummary, StatsFormatError, type StatsSummary } from './stats-summary';

export const DEFAULT_POLL_INTERVAL_MS = 2000;

export interface KubeletRestClientOptions {
  transport: RestTransport;
  /** The node as the user named it, and the port, for messages. */
  host: string;
  port: number;
  /** false: the read-only port (plain HTTP). */
  tls: boolean;
  /** The credential in words (never its value); undefined for none (read-only port). */
  credential: string | undefined;
  tokenAuth: boolean;
  mask?: FieldMask;
  /** How often watchPods polls `/pods`; default 2 s. */
  pollIntervalMs?: number;
}

export interface RunningPod {
  uid: string;
  namespace: string;
  name: string;
  containers: string[];
}

export interface KubeletRestClient extends KubeletClient {
  stats(): Promise<StatsSummary>;
  /** Probe counts per container, with the last result where two scrapes by this client tell it. */
  probes(): Promise<ProbeTable>;
  runningPods(): Promise<RunningPod[]>;
  /** The kubelet's effective configuration: the body of `/configz` (a debugging handler, so it may be off). */
  configz(): Promise<string>;
  /** A container's log from `/containerLogs` (kubelet-rest-logs.ts), line by line as the kubelet sends it. */
  containerLog(target: KubeletLogTarget, read: LogReadOptions): AsyncGenerator<Buffer>;
  /** Where containerLog reads a log from, in words (`the kubelet REST API: GET https://…`). */
  containerLogOrigin(target: KubeletLogTarget, read: LogReadOptions): string;
}

export function createKubeletRestClient(o: KubeletRestClientOptions): KubeletRestClient {
  const base = `${o.tls ? 'https' : 'http'}://127.0.0.1:${o.port}`;
  const streams = new Set<PodStream<HeldPod>>();
  let previousProbes: ProbeTable | undefined;

  const get = async (path: string): Promise<string> => {
    const where = `${base}${path} on ${o.host}`;
    let res;
    try {
      res = await o.transport.get(path);
    } catch (err) {
      if (err instanceof KubeletError) throw err;
      if (isSshError(err)) throw toKubeletError(err, { api: 'REST', method: `GET ${path}`, socketPath: `127.0.0.1:${o.port}`, transportError: () => null });
      throw new KubeletError('UNREACHABLE', `Cannot reach the kubelet (${where}): ${(err as Error).message}`, 'Check the connection to the node; Nodescope retries.', { cause: err, retryable: true });
    }
    if (res.status !== 200) throw restStatusError(res.status, res.body.toString('utf8'), { where, credential: o.credential, tokenAuth: o.tokenAuth });
    return res.body.toString('utf8');
  };

  // The JSON is read whole; an item that does not fit the pod schema is left out and named (readRestPodList).
  const read = async () => readRestPodList(Buffer.from(await get('/pods'), 'utf8'), `${base}/pods on ${o.host}`, o.mask);
  /** The JSON is converted whole, so every pod is decoded; an intake still keeps only what it holds of each. */
  const list = async <K extends HeldPod>(intake?: PodIntake<K>): Promise<PodList<K>> => {
    const { pods, bytes, undecodable, maskHonoured } = await read();
    return { pods: pods.map((p, i) => intake?.known(p.digest) ?? taken(p, bytes[i]!, intake)), undecodable, api: 'rest', maskHonoured };
  };

  const same = (a: HeldPod, b: HeldPod) => a.digest === b.digest;

  return {
    detectApiShape: async () => 'rest',
    listPods: (call) => list(call?.intake),
    async listPodBytes() {
      if (o.mask) throw new Error('listPodBytes returns pods as the kubelet sent them; with a mask, use listPods');
      const { bytes, undecodable } = await read();
      return { bytes, undecodable };
    },
    async streamPodBytes(handlers) {
      if (o.mask) throw new Error('streamPodBytes hands on pods as the kubelet sent them; with a mask, use listPods');
      // /pods is one JSON document: it is read whole, then handed on pod by pod at the consumer's pace.
      const { bytes: pods, undecodable } = await read();
      for (const error of undecodable) handlers.undecodable(error);
      let offset = 0;
      for (const bytes of pods) {
        handlers.pod(bytes, offset);
        offset += bytes.length;
        await handlers.wait?.();
      }
      return pods.length;
    },
    async getPod(uid) {
      // The REST API has no single-pod read: the pod is taken from the list.
      const { pods, undecodable, maskHonoured } = await list<ReceivedPod>();
      const pod = pods.find((p) => p.uid === uid);
      // As GetPod on the Pods API: a pod that is there but cannot be read fails with why, not as absent.
      const misfit = pod ? undefined : undecodable.find((e) => e.uid === uid);
      if (misfit) throw misfit;
      if (!pod) throw new KubeletError('NOT_FOUND', `No pod with UID ${uid} on ${o.host}`, "List the node's pods (nodescope pods NODE) to find the UID.");
      return { pod, api: 'rest', maskHonoured };
    },
    async watchPods<K extends HeldPod = ReceivedPod>(intake?: PodIntake<K>): Promise<PodStream<K>> {
      const first = await list(intake);
      const queue = new EventQueue<WatchMessage<K>>();
      const pause = wakeableSleep();
      let held = new Map<string, K>();
      /** The pods last named as not fitting, by who they are: each is named when first seen or when what is wrong with it changes. */
      let named = new Map<string, PodDecodeError>();
      let cancelled = false;
      const apply = ({ pods, undecodable }: PodList<K>) => {
        const next = new Map(pods.map((p) => [p.uid, p]));
        // A held pod that no longer fits stays as last read, as a Pods API watch keeps a pod whose change does not
        // decode: found by its uid, or by its namespace/name when the uid is what does not fit.
        let byName: Map<string, K> | undefined;
        for (const { uid, pod } of undecodable) {
          const before = uid ? held.get(uid) : (byName ??= new Map([...held.values()].map((p) => [`${p.namespace}/${p.name}`, p]))).get(pod);
          if (before && !next.has(before.uid)) next.set(before.uid, before);
        }
        for (const change of podSetChanges(held, next, same)) queue.push(change);
        held = next;
        // After the changes: a deletion of the same pod would clear its name from the watch's left-out pods.
        const misfits = new Map(undecodable.map((e) => [`${e.uid ?? ''}\u0000${e.pod}`, e]));
        for (const [who, error] of named) if (!misfits.has(who)) queue.push({ type: 'UNDECODABLE_GONE', error });
        // Named again only when what is wrong changed: not when its place in /pods moved (other pods came or went).
        for (const [who, error] of misfits) {
          const before = named.get(who);
          if (before?.path !== error.path || before.reason !== error.reason) queue.push({ type: 'UNDECODABLE', error });
        }
        named = misfits;
      };
      apply(first);
      queue.push({ type: 'INITIAL_SYNC_COMPLETE' });
      const stream: PodStream<K> = {
        api: 'rest',
        backlog: () => queue.length,
        maskHonoured: () => first.maskHonoured,
        cancel() {
          cancelled = true;
          pause.wake();
          queue.end();
          streams.delete(stream);
        },
        [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator](),
      };
      streams.add(stream);
      void (async () => {
        while (!cancelled) {
          await pause.sleep(o.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS);
          if (cancelled) return;
          try {
            const polled = await list(intake);
            if (!cancelled) apply(polled);
          } catch (err) {
            streams.delete(stream);
            return queue.end(err);
          }
        }
      })();
      return stream;
    },
    async stats() {
      const text = await get('/stats/summary');
      try {
        return parseStatsSummary(text);
      } catch (err) {
        if (err instanceof StatsFormatError) throw new KubeletError('INTERNAL', err.message, 'Report this with the kubelet version.', { cause: err });
        throw err;
      }
    },
    async probes() {
      const table = lastResults(previousProbes, parseProbeMetrics(await get('/metrics/probes')));
      previousProbes = table;
      return table;
    },
    async runningPods() {
      const parsed = JSON.parse(await get('/runningpods/')) as { items?: { metadata?: Record<string, string>; spec?: { containers?: { name?: string }[] } }[] };
      return (parsed.items ?? []).map((p) => ({
        uid: p.metadata?.uid ?? '',
        namespace: p.metadata?.namespace ?? '',
        name: p.metadata?.name ?? '',
        containers: (p.spec?.containers ?? []).map((c) => c.name ?? ''),
      }));
    },
    configz: () => get('/configz'),
    containerLog: (target, read) => readRestContainerLog(o, target, read),
    containerLogOrigin: (target, read) => restLogsOrigin(o, target, read),
    close() {
      for (const s of [...streams]) s.cancel();
    },
  };
}
