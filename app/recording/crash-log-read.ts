/**
 * Reading a recording's captured log (crash-log.ts) the way a node's file is read: the records go through
 * the same kubelet reader (tail, since, timestamps, limit bytes), so `nodescope logs RECORDING POD` prints
 * what `kubectl logs` would have printed for those lines, and the app shows them as it shows a live log.
 * Which capture answers "container C of pod P at time T" follows the pod's status at T, by container ID.
 */
import { readContainerLogFiles } from '../logs/container-logs';
import type { WrittenLine } from '../logs/kubelet-log-writer';
import type { LogFileAccess } from '../logs/log-file-access';
import type { LogReadOptions } from '../logs/log-options';
import type { PodObject } from '../pod/pod-tree';
import type { CrashLog } from './crash-log';

/** One file held in memory, for the reader. */
function capturedFile(path: string, bytes: Buffer): LogFileAccess {
  const dir = path.slice(0, path.lastIndexOf('/'));
  return {
    where: 'the recording',
    list: async (d) => (d === dir ? [path.slice(dir.length + 1)] : undefined),
    stat: async (p) => (p === path ? { size: bytes.length, identity: 'captured' } : undefined),
    async *read(p, offset, length) {
      if (p === path && length > 0) yield bytes.subarray(offset, offset + length);
    },
  };
}

/** The captured lines as the kubelet's reader prints them with `options` (never following: nothing more comes). */
export function readCrashLog(log: CrashLog, options: LogReadOptions): AsyncGenerator<WrittenLine> {
  const path = `/recording/${log.container}/${log.instance}.log`;
  const files = { container: log.container, restartCount: log.instance, current: path, rotated: [] };
  return readContainerLogFiles(capturedFile(path, log.records ?? Buffer.alloc(0)), files, { ...options, follow: false, includeRotated: false });
}

const obj = (v: unknown): PodObject | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as PodObject) : undefined);
const list = (v: unknown): PodObject[] => (Array.isArray(v) ? v.map(obj).filter((o): o is PodObject => o !== undefined) : []);

/** The pod's containers as its status names them: init, app, then ephemeral. */
export function recordedContainers(pod: PodObject): string[] {
  const status = obj(pod.status) ?? {};
  return ['initContainerStatuses', 'containerStatuses', 'ephemeralContainerStatuses'].flatMap((k) => list(status[k]).map((s) => String(s.name ?? '')));
}

/** kubectl's default container: the pod's first app container. */
export function firstAppContainer(pod: PodObject): string | undefined {
  const first = list(obj(pod.spec)?.containers)[0]?.name;
  return typeof first === 'string' ? first : undefined;
}

export type CrashLogAnswer = { log: CrashLog } | { message: string; nextStep: string };

/**
 * The capture of `container`'s current (or with `previous`, last ended) instance as `pod` (the pod at the
 * instant asked about, `atText` naming it) shows it; else why the recording holds none.
 */
export function findCrashLog(logs: readonly CrashLog[], pod: PodObject, container: string, previous: boolean, atText: string): CrashLogAnswer {
  const meta = obj(pod.metadata) ?? {};
  const podText = `${String(meta.namespace)}/${String(meta.name)}`;
  const status = ['initContainerStatuses', 'containerStatuses', 'ephemeralContainerStatuses'].flatMap((k) => list(obj(pod.status)?.[k])).find((s) => s.name === container);
  if (!status) {
    const names = recordedContainers(pod);
    return { message: `pod ${podText} has no container ${container} at ${atText}`, nextStep: names.length ? `Its containers: ${names.join(', ')}.` : 'No container of it had started then: pick a later time (--at).' };
  }
  const restarts = typeof status.restartCount === 'number' ? status.restartCount : 0;
  const state = previous ? obj(status.lastState) : obj(status.state);
  const ended = obj(state?.terminated);
  if (!ended) {
    if (previous) return { message: `previous terminated container ${JSON.stringify(container)} in pod ${JSON.stringify(podText)} not found at ${atText}`, nextStep: 'It had not restarted by then: leave out --previous, or pick a later time (--at).' };
    const now = Object.keys(state ?? {})[0] ?? 'not started';
    return {
      message: `container ${container} of pod ${podText} was ${now} at ${atText}: a recording keeps the end of an instance's log once it ends`,
      nextStep: obj(status.lastState)?.terminated ? 'Add --previous for the instance that ended before it, or pick a time after this one ended (--at).' : 'Pick a time after it ended (--at), or read its log on the live node.',
    };
  }
  const instance = previous ? restarts - 1 : restarts;
  const id = typeof ended.containerID === 'string' ? ended.containerID : '';
  const log = logs.find((l) => l.uid === meta.uid && l.container === container && (id ? l.containerID === id : l.instance === instance));
  const which = `instance ${instance} of container ${container} in pod ${podText}`;
  if (!log && !logs.length) {
    return { message: `the recording holds no container logs at all, so none for ${which}: it was made by a Nodescope that did not keep them, or with --crash-lines 0, or no container ended while it recorded`, nextStep: 'Read the log on the node while it is still there, or record the node again to keep the next crash\'s.' };
  }
  if (!log) {
    return { message: `the recording holds no log for ${which}: it ended before the recording started, or the recording stopped before its log was captured`, nextStep: 'Read it on the node while it is still there (nodescope logs NODE POD --previous), or record the node to catch the next one.' };
  }
  if (log.missing !== undefined) return { message: `the recording holds no log for ${which}: ${log.missing}`, nextStep: 'The pod\'s status at the time (nodescope get RECORDING POD --at TIME) still says how it ended.' };
  return { log };
}
