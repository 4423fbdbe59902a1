// A generated pod's status for the situation it is in: phase, conditions and container statuses with
// timings in causal order between creation and now.
import type { PodObject, PodTree } from '../pod/pod-tree';
import { podQosClass } from './container-resources';
import { condition, notReadyDetail, runningState, terminatedState, waitingState } from './pod-status';
import { podTime } from './pod-time';
import type { Prng } from './prng';
import type { NodeFacts, Workload } from './workload';

/** The situations a pod can be found in; the generator spreads pods over all of them. */
export type PodState =
  | 'running'
  | 'notReady'
  | 'crashLoop'
  | 'creating'
  | 'initializing'
  | 'unschedulable'
  | 'succeeded'
  | 'failed'
  | 'terminating';

export function podStatus(
  node: NodeFacts,
  rng: Prng,
  allocatePodIPs: (hostNetwork: boolean) => string[],
  pod: PodTree,
  w: Workload,
  state: PodState,
  createdMs: number,
  nowMs: number,
  hostNetwork: boolean,
): PodObject {
  const spec = pod.spec as PodObject;
  const containers = spec.containers as PodObject[];
  const initContainers = (spec.initContainers as PodObject[] | undefined) ?? [];
  const qosClass = podQosClass([...containers, ...initContainers]);
  if (state === 'unschedulable') {
    return {
      conditions: [
        condition('PodScheduled', false, createdMs, {
          reason: 'Unschedulable',
          message: '0/12 nodes are available: 12 node(s) didn\'t match Pod\'s node affinity/selector. preemption: 0/12 nodes are available: 12 Preemption is not helpful for scheduling.',
        }),
      ],
      phase: 'Pending',
      qosClass,
    };
  }
  const span = Math.max(0, nowMs - createdMs);
  const scheduledMs = createdMs;
  const sandboxMs = createdMs + Math.min(span, rng.int(300, 3000));
  const initDoneMs = sandboxMs + Math.min(Math.max(0, nowMs - sandboxMs), initContainers.length > 0 ? rng.int(2000, 20_000) : 0);
  const startedMs = initDoneMs + Math.min(Math.max(0, nowMs - initDoneMs), rng.int(500, 30_000));
  const readyMs = startedMs + Math.min(Math.max(0, nowMs - startedMs), rng.int(0, 20_000));
  const ips = allocatePodIPs(hostNetwork);
  const containerID = () => `containerd://${rng.hex(64)}`;
  const imageID = (image: string) => (rng.chance(0.5) ? `sha256:${rng.hex(64)}` : `${image.split(':')[0]}@sha256:${rng.hex(64)}`);
  const names = containers.map((c) => c.name as string);

  const base = (c: PodObject): PodObject => ({ image: c.image as string, name: c.name as string });
  const running = (c: PodObject, ready: boolean, since: number, restartCount = 0): PodObject => ({
    ...base(c),
    containerID: containerID(),
    imageID: imageID(c.image as string),
    lastState: {},
    ready,
    restartCount,
    started: true,
    state: runningState(since),
  });
  const waiting = (c: PodObject, reason: string): PodObject => ({
    ...base(c),
    imageID: '',
    lastState: {},
    ready: false,
    restartCount: 0,
    started: false,
    state: waitingState(reason),
  });
  const terminated = (c: PodObject, exitCode: number, reason: string, from: number, to: number): PodObject => {
    const id = containerID();
    return {
      ...base(c),
      containerID: id,
      imageID: imageID(c.image as string),
      lastState: {},
      ready: false,
      restartCount: 0,
      started: false,
      state: terminatedState({ containerID: id, exitCode, reason, startedMs: from, finishedMs: to }),
    };
  };
  const initDone = (): PodObject[] =>
    initContainers.map((c) =>
      c.restartPolicy === 'Always' ? running(c, true, sandboxMs) : terminated(c, 0, 'Completed', sandboxMs, initDoneMs),
    );

  let phase = 'Running';
  let initialized = true;
  let containersReady = true;
  let unready: string[] = [];
  let readyReason: string | undefined;
  let containerStatuses: PodObject[];
  let initStatuses: PodObject[] = initDone();

  switch (state) {
    case 'running':
    case 'terminating':
      containerStatuses = containers.map((c) => running(c, true, startedMs, rng.chance(0.1) ? rng.int(1, 4) : 0));
      break;
    case 'notReady': {
      const bad = rng.pick(names);
      containerStatuses = containers.map((c) => running(c, c.name !== bad, startedMs));
      containersReady = false;
      unready = [bad];
      break;
    }
    case 'crashLoop': {
      const bad = rng.pick(names);
      containerStatuses = containers.map((c) => {
        if (c.name !== bad) return running(c, true, startedMs);
        const finished = nowMs - rng.int(5_000, 300_000);
        const restarts = rng.int(3, 250);
        const oom = rng.chance(0.2);
        const status = running(c, false, startedMs, restarts);
        status.lastState = terminatedState({
          containerID: status.containerID as string,
          exitCode: oom ? 137 : rng.pick([1, 2, 127, 255]),
          reason: oom ? 'OOMKilled' : 'Error',
          startedMs: finished - rng.int(1_000, 60_000),
          finishedMs: finished,
        });
        status.started = false;
        status.state = waitingState(
          'CrashLoopBackOff',
          `back-off 5m0s restarting failed container=${bad} pod=${(pod.metadata as PodObject).name}_${w.namespace}(${(pod.metadata as PodObject).uid})`,
        );
        return status;
      });
      containersReady = false;
      unready = [bad];
      break;
    }
    case 'creating':
      phase = 'Pending';
      containerStatuses = containers.map((c) => waiting(c, 'ContainerCreating'));
      initStatuses = initContainers.map((c) => waiting(c, 'PodInitializing'));
      if (initContainers.length > 0) initialized = false;
      containersReady = false;
      unready = names;
      break;
    case 'initializing': {
      phase = 'Pending';
      initialized = false;
      containersReady = false;
      unready = names;
      const current = rng.int(0, initContainers.length - 1);
      initStatuses = initContainers.map((c, i) =>
        i < current
          ? (c.restartPolicy === 'Always' ? running(c, true, sandboxMs) : terminated(c, 0, 'Completed', sandboxMs, sandboxMs + 1000))
          : i === current
            ? running(c, false, sandboxMs + 1000)
            : waiting(c, 'PodInitializing'),
      );
      containerStatuses = containers.map((c) => waiting(c, 'PodInitializing'));
      break;
    }
    case 'succeeded':
    case 'failed': {
      const ok = state === 'succeeded';
      phase = ok ? 'Succeeded' : 'Failed';
      containersReady = false;
      readyReason = ok ? 'PodCompleted' : 'PodFailed';
      const finishedMs = Math.min(nowMs, startedMs + rng.int(2_000, 600_000));
      containerStatuses = containers.map((c) => terminated(c, ok ? 0 : rng.pick([1, 2, 3]), ok ? 'Completed' : 'Error', startedMs, finishedMs));
      break;
    }
  }

  const readyToStart = phase !== 'Pending' || state === 'initializing' || span > 3000;
  const notReady = readyReason !== undefined ? { reason: readyReason } : notReadyDetail(unready);
  const conditions: PodObject[] = [
    condition('PodReadyToStartContainers', readyToStart && phase !== 'Succeeded' && phase !== 'Failed', sandboxMs),
    condition(
      'Initialized',
      initialized,
      initialized ? initDoneMs : createdMs,
      initialized ? (readyReason === 'PodCompleted' ? { reason: 'PodCompleted' } : {}) : {
        reason: 'ContainersNotInitialized',
        message: `containers with incomplete status: [${initContainers.filter((c) => c.restartPolicy !== 'Always').map((c) => c.name).join(' ')}]`,
      },
    ),
    condition('Ready', containersReady, containersReady ? readyMs : startedMs, containersReady ? {} : notReady),
    condition('ContainersReady', containersReady, containersReady ? readyMs : startedMs, containersReady ? {} : notReady),
    condition('PodScheduled', true, scheduledMs),
  ];
  const status: PodObject = { conditions, containerStatuses, hostIP: node.hostIP, hostIPs: [{ ip: node.hostIP }] };
  if (spec.initContainers) status.initContainerStatuses = initStatuses;
  if (spec.ephemeralContainers) {
    status.ephemeralContainerStatuses = (spec.ephemeralContainers as PodObject[]).map((c) =>
      rng.chance(0.5)
        ? running(c, false, nowMs - rng.int(1_000, 600_000))
        : terminated(c, 0, 'Completed', nowMs - 700_000, nowMs - rng.int(1_000, 600_000)),
    );
  }
  status.phase = phase;
  if (phase !== 'Pending' || state === 'initializing') {
    status.podIP = ips[0]!;
    status.podIPs = ips.map((ip) => ({ ip }));
  }
  status.qosClass = qosClass;
  status.startTime = podTime(createdMs);
  return status;
}
