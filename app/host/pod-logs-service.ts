/**
 * The contract's logs.read / logs.follow: a pod container's log read from the node's files
 * (app/logs) through the node's live link (on a node read through the kubelet's REST API, asked of the kubelet:
 * `/containerLogs`, each answer saying which), or on a recording the end of an ended instance's log as the
 * recorder captured it (app/recording/crash-log-read.ts), for the pod as it was at the recording's instant.
 * A snapshot, a node not connected, a container without a log are answered as `unavailable` with the reason
 * and what to do: the Logs tab shows that, not an error.
 * A follow (a subscription) sends its lines in batches as progress to its caller only; it reads until its
 * caller cancels it (then the reading on the node stops), its node's link goes, the container restarts,
 * or it fails, and answers which.
 */
import { sourceCan } from '../source/kinds/source-kinds';
import { CANCELLED_BY_CALLER, ContractError, LOG_LINE_CHARS_MAX, LOG_READ_CHARS_MAX, type CallContext, type LogFollowEnd, type LogFollowProgress, type LogRead, type NodeInfo, type RequestHandlers, type ValidInput } from '../contract';
import { containerLogs } from '../logs/container-logs';
import { LogAccessError } from '../logs/log-file-access';
import { sinceDuration, type LogReadOptions } from '../logs/log-options';
import { listContainers, parsePodDirName, type PodLogDir } from '../logs/pod-log-layout';
import { NewestLines } from '../logs/newest-lines';
import { TextLines } from '../logs/text-lines';
import type { PodObject } from '../pod/pod-tree';
import type { CrashLog } from '../recording/crash-log';
import { findCrashLog, firstAppContainer, readCrashLog, recordedContainers } from '../recording/crash-log-read';
import { editNodeWith } from './app-next-step';
import type { NodeLogFiles } from '../core/node-link';
import { KubeletError } from '../kubelet/kubelet-error';
import type { KubeletLogs } from '../source/capabilities';

export interface PodLogsServiceDeps {
  /** The node's record (throws not-found for an unknown id). */
  node(nodeId: string): NodeInfo;
  /** The pod's namespace and name (throws not-found when the node does not have it). */
  pod(nodeId: string, uid: string): Promise<{ namespace: string; name: string; containers?: readonly { kind: string; name: string }[] }>;
  /** The node's log files through its live link; undefined when it has none now. */
  logFiles(nodeId: string): Promise<NodeLogFiles | undefined>;
  /** The kubelet's /containerLogs, on a node read through its REST API (then asked instead of the files). */
  kubeletLogs?(nodeId: string): Promise<KubeletLogs | undefined>;
  /** The captured ends of ended instances' logs: an opened recording's, or those a live node's pod histories keep. */
  crashLogs(nodeId: string): readonly CrashLog[] | undefined;
  /** The pod as its source holds it now (a recording: at the instant shown), as kubectl's JSON. */
  podObject(nodeId: string, uid: string): Promise<PodObject>;
  /** How often a follow looks for new bytes (default the reader's 1 s). */
  pollIntervalMs?: number;
  /** The most characters one read answers (default LOG_READ_CHARS_MAX). */
  readCharsMax?: number;
  /** How long a follow's lines gather before they go out as one batch (default 100 ms). */
  batchMs?: number;
}

/** Lines per batch at most, so one progress frame stays a bounded message. */
const BATCH_LINES = 2000;

type Unavailable = Extract<LogRead, { status: 'unavailable' }>;
type Target = { containers: string[]; container: string } & ({ files: NodeLogFiles; pod: PodLogDir } | { kubelet: KubeletLogs; namespace: string; name: string });

export function createPodLogsService(deps: PodLogsServiceDeps) {
  /** The follows running, each with what ends it from this side (its node's link gone, the app closing) and its node. */
  const follows = new Map<AbortController, string>();

  const unavailable = (message: string, nextStep: string, containers?: string[]): Unavailable => ({ status: 'unavailable', message, nextStep, ...(containers ? { containers } : {}) });

  /** Why the node's files cannot be read, when they cannot. */
  const asUnavailable = (err: unknown, files: NodeLogFiles | undefined, containers?: string[]): Unavailable => {
    if (err instanceof LogAccessError) {
      const nextStep = err.code === 'PERMISSION' && files && !files.sudo ? `Container logs are root-only: log in as root, or ${editNodeWith('“Use sudo” ticked')}.` : err.nextStep;
      return unavailable(`${err.message[0]!.toUpperCase()}${err.message.slice(1)}.`, nextStep, containers);
    }
    if ((err as Error).name === 'UnsupportedLogFormatError') return unavailable((err as Error).message, 'Nodescope reads the CRI log format only (containerd, CRI-O); read this one on the node.', containers);
    // The kubelet's REST API refused or failed (a credential, its authorizer, its debugging handlers off).
    if (err instanceof KubeletError) return unavailable(err.message, err.nextStep ?? 'Open the log again; if it keeps failing, check the node\'s connection.', containers);
    throw err;
  };

  const resolve = async (input: ValidInput<'logs.read'>): Promise<Target | Unavailable> => {
    const node = deps.node(input.nodeId);
    // Only files lack logs (app/source/kinds/source-kinds.test.ts).
    if (!sourceCan(node.spec, 'logs')) {
      return unavailable(
        `Logs are not available offline: ${node.label} is a snapshot file, and container logs are not part of one.`,
        'Nodescope reads logs from the node\'s own files while connected (and a recording keeps the end of each crashed container\'s): open the pod on the live node to see them.',
      );
    }
    const kubelet = await deps.kubeletLogs?.(input.nodeId);
    if (kubelet) return resolveKubelet(input, kubelet);
    const files = await deps.logFiles(input.nodeId);
    if (!files) return unavailable(`${node.label} is not connected, so its log files cannot be read.`, 'Connect the node, then open the Logs tab again.');
    const { namespace, name, containers: declared = [] } = await deps.pod(input.nodeId, input.uid);
    const parts = parsePodDirName(`${namespace}_${name}_${input.uid}`);
    if (!parts) return unavailable(`Pod ${namespace}/${name} has a name or UID the kubelet could not have made a log folder of.`, 'Its logs cannot be on the node under /var/log/pods.');
    const pod = { ...parts, path: `${files.logsDir}/${namespace}_${name}_${input.uid}` };
    let containers: string[];
    try {
      containers = await listContainers(files.access, pod);
    } catch (err) {
      return asUnavailable(err, files);
    }
    if (!containers.length) {
      return unavailable(
        `No container of pod ${namespace}/${name} has a log on ${files.access.where}.`,
        `A container that has not started yet has none; or the kubelet writes logs somewhere other than ${files.logsDir}.`,
        [],
      );
    }
    // As kubectl: the pod's first app container, not the first folder by name (an init container that ended
    // long ago, whose follow would never see a line).
    const firstApp = declared.find((c) => c.kind === 'regular' && containers.includes(c.name))?.name;
    return { files, pod, containers, container: input.container ?? firstApp ?? containers[0]! };
  };

  /** The pod's containers as its spec names them: the kubelet answers for any of them, started or not. */
  const resolveKubelet = async (input: ValidInput<'logs.read'>, kubelet: KubeletLogs): Promise<Target | Unavailable> => {
    const { namespace, name, containers: declared = [] } = await deps.pod(input.nodeId, input.uid);
    const containers = [...new Set(declared.map((c) => c.name))].sort();
    if (!containers.length) return unavailable(`Pod ${namespace}/${name} names no container.`, 'There is no log to ask the kubelet for.', []);
    const firstApp = declared.find((c) => c.kind === 'regular')?.name;
    return { kubelet, namespace, name, containers, container: input.container ?? firstApp ?? containers[0]! };
  };

  const readOptions = (input: ValidInput<'logs.read'>, follow: boolean, signal?: AbortSignal): LogReadOptions => ({
    tailLines: input.tailLines,
    timestamps: input.timestamps,
    follow,
    ...(input.sinceSeconds !== undefined ? sinceDuration(input.sinceSeconds * 1000, Date.now()) : {}),
    ...(signal ? { signal } : {}),
    ...(follow && deps.pollIntervalMs !== undefined ? { pollIntervalMs: deps.pollIntervalMs } : {}),
  });

  const lines = (t: Target, input: ValidInput<'logs.read'>, options: LogReadOptions): AsyncIterable<{ bytes: Buffer }> => {
    if ('files' in t) return containerLogs(t.files.access).read({ pod: t.pod, container: t.container, previous: input.previous }, options);
    const bytes = t.kubelet.read(restTarget(t, input), options);
    return (async function* () {
      for await (const b of bytes) yield { bytes: b };
    })();
  };
  const restTarget = (t: Extract<Target, { kubelet: KubeletLogs }>, input: ValidInput<'logs.read'>) => ({ namespace: t.namespace, pod: t.name, container: t.container, previous: input.previous });
  /** Where the lines come from, for the tab to say. */
  const origin = (t: Target, input: ValidInput<'logs.read'>, options: LogReadOptions) =>
    'files' in t ? `the log files in ${t.pod.path}/${t.container} on ${t.files.access.where}` : t.kubelet.origin(restTarget(t, input), options);

  /** The lines as text, the newest kept within the answer's bounds (the oldest give way as they come). */
  const collect = async (written: AsyncIterable<{ bytes: Buffer }>) => {
    const text = new TextLines(LOG_LINE_CHARS_MAX);
    const kept = new NewestLines(deps.readCharsMax ?? LOG_READ_CHARS_MAX);
    for await (const w of written) for (const l of text.push(w.bytes)) kept.push(l);
    for (const l of text.flush()) kept.push(l);
    return { lines: kept.lines(), ...(kept.omitted ? { omitted: kept.omitted } : {}) };
  };

  /** A kept capture's lines, as the node's would be read with the request's options. */
  const keptAnswer = async (log: CrashLog, containers: string[], input: ValidInput<'logs.read'>, by: 'recording' | 'history'): Promise<LogRead> => {
    const got = await collect(readCrashLog(log, readOptions(input, false)));
    const captured = {
      by,
      at: log.time,
      instance: log.instance,
      truncated: log.truncated,
      ...(log.reason !== undefined ? { reason: log.reason } : {}),
      ...(log.exitCode !== undefined ? { exitCode: log.exitCode } : {}),
      ...(log.finishedAt !== undefined ? { finishedAt: log.finishedAt } : {}),
    };
    return { status: 'ok', containers, container: log.container, ...got, captured };
  };

  /** A recording: the capture of the instance the pod's status at the instant shown names. */
  const readRecorded = async (input: ValidInput<'logs.read'>, node: NodeInfo): Promise<LogRead> => {
    const pod = await deps.podObject(input.nodeId, input.uid);
    const containers = recordedContainers(pod);
    const container = input.container ?? firstAppContainer(pod) ?? containers[0];
    if (!container) return unavailable('No container of this pod had started at this point of the recording.', 'Move the recording\'s time later.', []);
    const at = node.state.phase === 'offline' && node.state.timeline ? new Date(node.state.timeline.at).toISOString() : 'this time';
    const answer = findCrashLog(deps.crashLogs(input.nodeId) ?? [], pod, container, input.previous, at);
    if (!('log' in answer)) return unavailable(`${answer.message[0]!.toUpperCase()}${answer.message.slice(1)}.`, answer.nextStep, containers);
    return keptAnswer(answer.log, containers, input, 'recording');
  };

  /** One instance's capture as its pod's history keeps it (the History tab's lines before a restart). */
  const readKept = async (input: ValidInput<'logs.read'>, instance: number, node: NodeInfo): Promise<LogRead> => {
    const log = (deps.crashLogs(input.nodeId) ?? []).find((l) => l.uid === input.uid && l.instance === instance && (input.container === undefined || l.container === input.container));
    const which = `instance ${instance}${input.container ? ` of container ${input.container}` : ''}`;
    if (!log) return unavailable(`${node.label} keeps no log of ${which} of this pod.`, 'Only instances that ended while Nodescope watched (or recorded) the node are kept; pick one from the pod\'s History tab.');
    if (log.missing !== undefined) return unavailable(`Nothing of ${which} was kept: ${log.missing}.`, 'The pod\'s History tab still says how it ended.');
    return keptAnswer(log, [log.container], input, node.spec.kind === 'recording' ? 'recording' : 'history');
  };

  /**
   * A live node without the previous instance's file (the kubelet removed it): the end its pod's history
   * kept when that instance ended, if it did; undefined otherwise, and the node's answer stands.
   */
  const previousKept = async (input: ValidInput<'logs.read'>): Promise<LogRead | undefined> => {
    let pod: PodObject;
    try {
      pod = await deps.podObject(input.nodeId, input.uid);
    } catch {
      return undefined;
    }
    const containers = recordedContainers(pod);
    const container = input.container ?? firstAppContainer(pod) ?? containers[0];
    if (!container) return undefined;
    const answer = findCrashLog(deps.crashLogs(input.nodeId) ?? [], pod, container, true, 'now');
    return 'log' in answer ? keptAnswer(answer.log, containers, input, 'history') : undefined;
  };

  const read = async (input: ValidInput<'logs.read'>): Promise<LogRead> => {
    const node = deps.node(input.nodeId);
    if (input.instance !== undefined) return readKept(input, input.instance, node);
    if (node.spec.kind === 'recording') return readRecorded(input, node);
    const t = await resolve(input);
    let answer: LogRead;
    if ('status' in t) answer = t;
    else {
      try {
        const options = readOptions(input, false);
        answer = { status: 'ok', containers: t.containers, container: t.container, from: origin(t, input, options), ...(await collect(lines(t, input, options))) };
      } catch (err) {
        answer = asUnavailable(err, 'files' in t ? t.files : undefined, t.containers);
      }
    }
    return (answer.status === 'unavailable' && input.previous && (await previousKept(input))) || answer;
  };

  /** Reads until the caller cancels (then rejects cancelled, once the reading has stopped) or it ends by itself. */
  const follow = async (t: Target, input: ValidInput<'logs.read'>, call: CallContext<LogFollowProgress>): Promise<LogFollowEnd> => {
    const ours = new AbortController();
    const signal = AbortSignal.any([call.signal, ours.signal]);
    follows.set(ours, input.nodeId);
    const options = readOptions(input, true, signal);
    call.progress({ status: 'following', containers: t.containers, container: t.container, from: origin(t, input, options) });
    const text = new TextLines(LOG_LINE_CHARS_MAX);
    let batch: string[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const send = () => {
      clearTimeout(timer);
      timer = undefined;
      if (!batch.length || call.signal.aborted) return;
      call.progress({ status: 'lines', lines: batch });
      batch = [];
    };
    let end: LogFollowEnd;
    try {
      for await (const w of lines(t, input, options)) {
        for (const l of text.push(w.bytes)) batch.push(l);
        if (batch.length >= BATCH_LINES) send();
        else timer ??= setTimeout(send, deps.batchMs ?? 100);
      }
      batch.push(...text.flush());
      end =
        'files' in t
          ? { status: 'ended', reason: 'ended', message: `Container ${t.container} restarted: a newer instance writes its log now.`, nextStep: 'Open its log again to follow the new instance.' }
          : { status: 'ended', reason: 'ended', message: `The kubelet ended the log of container ${t.container}: the container stopped or restarted.`, nextStep: 'Open its log again to follow a new instance.' };
    } catch (err) {
      let why: Unavailable;
      try {
        why = asUnavailable(err, 'files' in t ? t.files : undefined);
      } catch {
        why = unavailable(`Reading the log stopped: ${(err as Error).message}`, 'Open the log again; if it keeps failing, check the node\'s connection.');
      }
      end = { status: 'ended', reason: 'failed', message: why.message, nextStep: why.nextStep };
    } finally {
      clearTimeout(timer);
      follows.delete(ours);
    }
    if (call.signal.aborted) throw new ContractError('cancelled', CANCELLED_BY_CALLER);
    send();
    if (ours.signal.aborted) return { status: 'ended', reason: 'ended', ...(ours.signal.reason as { message: string; nextStep: string }) };
    return end;
  };

  const handlers: Pick<RequestHandlers, 'logs.read' | 'logs.follow'> = {
    'logs.read': read,
    'logs.follow': async (input, call) => {
      if (input.instance !== undefined) return unavailable('That instance has ended: its kept lines are all there is, nothing more is written.', 'Read them without following.');
      if (deps.node(input.nodeId).spec.kind === 'recording') {
        return unavailable('Nothing more is written to a recording: it keeps the end of each instance\'s log as it ended.', 'Turn Follow off to read what it kept.');
      }
      const t = await resolve(input);
      if ('status' in t) return t;
      // A previous instance is finished: following it is reading it.
      if (input.previous) throw new ContractError('invalid-input', 'The previous instance of a container writes no more lines: there is nothing to follow.', 'Turn off “previous”, or read it without following.', 'previous');
      return follow(t, input, call);
    },
  };

  /** Ends the follows this side ends (not their callers), saying why. */
  const endFollows = (which: (nodeId: string) => boolean, why: { message: string; nextStep: string }) => {
    for (const [c, n] of follows) if (which(n)) c.abort(why);
  };

  return {
    handlers,
    /** How many follows are reading now. */
    following: () => follows.size,
    /** Ends every follow of a node (its link closed or it was removed). */
    stopNode(nodeId: string) {
      endFollows((n) => n === nodeId, { message: 'The node\'s connection closed, so the log is no longer followed.', nextStep: 'Open the log again once the node is live.' });
    },
    close() {
      endFollows(() => true, { message: 'Nodescope closed, so the log is no longer followed.', nextStep: 'Open the log again after starting Nodescope.' });
    },
  };
}
