/**
 * `nodescope logs RECORDING POD [--at TIME] [-c C] [-p]`: the end of a container instance's log as the flight
 * recorder captured it when the instance ended (app/recording/crash-log-capture.ts), printed as `kubectl logs`
 * with the same flags would have printed those lines. The pod's status at TIME says which instance is meant:
 * the current one (which must have ended by then) or, with -p, the one before it.
 */
import { LogAccessError } from '../logs/log-file-access';
import type { LogReadOptions } from '../logs/log-options';
import type { PodLogLine } from '../logs/pod-logs';
import { findCrashLog, firstAppContainer, readCrashLog, recordedContainers } from '../recording/crash-log-read';
import type { NodeCommandOptions } from './node-options';
import { openOffline } from './offline-source';
import { findPod, parsePodReference, describeReference } from './pod-reference';
import { UsageError } from './usage-error';

export async function recordedPodLogs(file: string, opts: NodeCommandOptions & { extraValues: Record<string, unknown> }, read: LogReadOptions): Promise<{ podName: string; lines: AsyncIterable<PodLogLine> }> {
  const v = opts.extraValues;
  if (read.follow) throw new UsageError('a recording holds what it captured and nothing more is written to it: leave out -f');
  if (v['all-containers']) throw new UsageError('a recording keeps one instance\'s log at a time: choose the container with -c');
  const offline = await openOffline(file, { from: 'end', ...(opts.at !== undefined ? { at: opts.at } : {}) });
  if (offline.file.kind !== 'recording') throw new UsageError(`${file} is a snapshot: it holds pods, not logs. Logs are kept by recordings (nodescope record)`);
  const refs = parsePodReference(opts.args[0]!, undefined);
  const index = offline.identities.indexOf(findPod(offline.identities, refs)!);
  const at = new Date(offline.at!).toISOString();
  if (index < 0) {
    throw new LogAccessError(`no pod ${refs.map(describeReference).join(' or ')} in the recording at ${at}`, 'List its pods then with nodescope pods RECORDING --at TIME; a deleted pod is there before its deletion.', 'NOT_FOUND');
  }
  const pod = offline.pods[index]!.pod;
  const containers = recordedContainers(pod);
  let container = v.container as string | undefined;
  if (container === undefined) {
    if (containers.length !== 1) {
      const name = offline.identities[index]!;
      throw new UsageError(`pod ${name.namespace}/${name.name} has several containers: ${containers.join(', ')}; choose one with -c${firstAppContainer(pod) ? ` (its first app container is ${firstAppContainer(pod)})` : ''}`);
    }
    container = containers[0]!;
  }
  const answer = findCrashLog(offline.file.crashLogs, pod, container, v.previous === true, at);
  if (!('log' in answer)) throw new LogAccessError(answer.message, answer.nextStep, 'NOT_FOUND');
  const { log } = answer;
  const name = container;
  return {
    podName: offline.identities[index]!.name,
    lines: (async function* () {
      for await (const w of readCrashLog(log, read)) yield { ...w, container: name };
    })(),
  };
}
