// The changes a kubelet makes to a pod over its life, as pure functions: each takes a pod and returns
// a changed copy (the store's pods are immutable), or undefined when the change does not apply.
import type { PodObject, PodTree } from '../pod/pod-tree';
import {
  condition,
  containerStatuses,
  notReadyDetail,
  runningState,
  terminatedState,
  waitingState,
} from './pod-status';
import { podTime } from './pod-time';
import type { Prng } from './prng';

function clone(pod: PodTree): PodTree {
  return structuredClone(pod);
}

function meta(pod: PodTree): PodObject {
  return pod.metadata as PodObject;
}

function status(pod: PodTree): PodObject {
  return pod.status as PodObject;
}

function phase(pod: PodTree): string | undefined {
  return (pod.status as PodObject | undefined)?.phase as string | undefined;
}

/** The API server bumps resourceVersion on every write the kubelet's status manager makes. */
function bumpResourceVersion(pod: PodTree, rng: Prng): void {
  const m = meta(pod);
  m.resourceVersion = String(Number(m.resourceVersion ?? 0) + rng.int(1, 40));
}

function setCondition(pod: PodTree, type: string, value: boolean, nowMs: number, detail: { reason?: string; message?: string }): void {
  const conditions = status(pod).conditions as PodObject[];
  const i = conditions.findIndex((c) => c.type === type);
  const previous = conditions[i];
  // lastTransitionTime moves only when the status flips, as on a real kubelet.
  const since = previous && previous.status === (value ? 'True' : 'False') ? Date.parse(previous.lastTransitionTime as string) : nowMs;
  const next = condition(type, value, since, value ? {} : detail);
  if (i >= 0) conditions[i] = next;
  else conditions.push(next);
}

/** Recomputes Ready and ContainersReady from the containers' ready flags. */
function syncReadiness(pod: PodTree, nowMs: number): void {
  const unready = containerStatuses(pod).filter((c) => c.ready !== true).map((c) => c.name as string);
  const ready = unready.length === 0;
  const detail = notReadyDetail(unready);
  setCondition(pod, 'Ready', ready, nowMs, detail);
  setCondition(pod, 'ContainersReady', ready, nowMs, detail);
}

function isRunning(c: PodObject): boolean {
  return (c.state as PodObject | undefined)?.running !== undefined;
}

/** A readiness probe starts failing or passing again on one running container. */
export function flapReadiness(pod: PodTree, rng: Prng, nowMs: number): PodTree | undefined {
  if (phase(pod) !== 'Running') return undefined;
  const running = containerStatuses(pod).map((c, i) => [c, i] as const).filter(([c]) => isRunning(c));
  if (running.length === 0) return undefined;
  const [, index] = rng.pick(running);
  const next = clone(pod);
  const c = containerStatuses(next)[index]!;
  c.ready = !(c.ready === true);
  syncReadiness(next, nowMs);
  bumpResourceVersion(next, rng);
  return next;
}

/** A container exits and the kubelet starts it again (or backs off, for a crash-looping one). */
export function restartContainer(pod: PodTree, rng: Prng, nowMs: number): PodTree | undefined {
  if (phase(pod) !== 'Running' || meta(pod).deletionTimestamp !== undefined) return undefined;
  // With restartPolicy Never (Job pods) a container that exits stays exited.
  if ((pod.spec as PodObject).restartPolicy === 'Never') return undefined;
  const statuses = containerStatuses(pod);
  if (statuses.length === 0) return undefined;
  const index = rng.int(0, statuses.length - 1);
  const next = clone(pod);
  const c = containerStatuses(next)[index]!;
  const state = c.state as PodObject;
  const previousStart = (state.running as PodObject | undefined)?.startedAt as string | undefined;
  const crashLooping = (state.waiting as PodObject | undefined)?.reason === 'CrashLoopBackOff';
  const oom = rng.chance(0.15);
  c.lastState = terminatedState({
    containerID: (c.containerID as string | undefined) ?? `containerd://${rng.hex(64)}`,
    exitCode: oom ? 137 : rng.pick([1, 2, 143]),
    reason: oom ? 'OOMKilled' : 'Error',
    startedMs: previousStart ? Date.parse(previousStart) : nowMs - rng.int(1_000, 30_000),
    finishedMs: nowMs,
  });
  c.restartCount = (c.restartCount as number) + 1;
  c.containerID = `containerd://${rng.hex(64)}`;
  c.ready = false;
  if (crashLooping || rng.chance(0.3)) {
    c.started = false;
    c.state = waitingState('CrashLoopBackOff', `back-off ${crashLooping ? '5m0s' : '10s'} restarting failed container=${c.name} pod=${meta(pod).name}_${meta(pod).namespace}(${meta(pod).uid})`);
  } else {
    c.started = true;
    c.state = runningState(nowMs);
  }
  syncReadiness(next, nowMs);
  bumpResourceVersion(next, rng);
  return next;
}

/**
 * The pod moves on in its life: Pending -> Running once its containers start (init containers done,
 * IPs assigned), a Running Job pod -> Succeeded or Failed. `allocateIPs` gives the pod its IPs.
 */
export function advancePhase(pod: PodTree, rng: Prng, nowMs: number, allocateIPs: (hostNetwork: boolean) => string[]): PodTree | undefined {
  const spec = pod.spec as PodObject;
  const current = phase(pod);
  const isJob = spec.restartPolicy !== 'Always';
  if (current === 'Pending' && spec.nodeName !== undefined) {
    const next = clone(pod);
    const s = status(next);
    const image = () => ({ containerID: `containerd://${rng.hex(64)}`, imageID: `sha256:${rng.hex(64)}` });
    s.containerStatuses = containerStatuses(next).map((c) => ({ ...c, ...image(), ready: true, started: true, state: runningState(nowMs) }));
    if (Array.isArray(s.initContainerStatuses)) {
      s.initContainerStatuses = (s.initContainerStatuses as PodObject[]).map((c, i) => {
        const sidecar = ((spec.initContainers as PodObject[])[i]?.restartPolicy) === 'Always';
        if (sidecar) return { ...c, ...image(), ready: true, started: true, state: runningState(nowMs) };
        const id = `containerd://${rng.hex(64)}`;
        return { ...c, containerID: id, imageID: `sha256:${rng.hex(64)}`, ready: false, started: false, state: terminatedState({ containerID: id, exitCode: 0, reason: 'Completed', startedMs: nowMs - 2000, finishedMs: nowMs - 1000 }) };
      });
    }
    s.phase = 'Running';
    if (s.podIP === undefined) {
      const ips = allocateIPs(spec.hostNetwork === true);
      s.podIP = ips[0]!;
      s.podIPs = ips.map((ip) => ({ ip }));
    }
    setCondition(next, 'PodReadyToStartContainers', true, nowMs, {});
    setCondition(next, 'Initialized', true, nowMs, {});
    syncReadiness(next, nowMs);
    bumpResourceVersion(next, rng);
    return next;
  }
  if (current === 'Running' && isJob) {
    const next = clone(pod);
    const s = status(next);
    const ok = rng.chance(0.8);
    s.phase = ok ? 'Succeeded' : 'Failed';
    s.containerStatuses = containerStatuses(next).map((c) => {
      const started = ((c.state as PodObject).running as PodObject | undefined)?.startedAt as string | undefined;
      return {
        ...c,
        ready: false,
        started: false,
        state: terminatedState({
          containerID: c.containerID as string,
          exitCode: ok ? 0 : 1,
          reason: ok ? 'Completed' : 'Error',
          startedMs: started ? Date.parse(started) : nowMs - 1000,
          finishedMs: nowMs,
        }),
      };
    });
    const reason = { reason: ok ? 'PodCompleted' : 'PodFailed' };
    setCondition(next, 'PodReadyToStartContainers', false, nowMs, {});
    setCondition(next, 'Ready', false, nowMs, reason);
    setCondition(next, 'ContainersReady', false, nowMs, reason);
    bumpResourceVersion(next, rng);
    return next;
  }
  return undefined;
}

/** A graceful deletion: the API server sets deletionTimestamp = now + grace period. */
export function markDeleting(pod: PodTree, rng: Prng, nowMs: number): PodTree | undefined {
  const m = meta(pod);
  // Mirror pods of static pods go away only when their manifest does; the API cannot delete them.
  const annotations = m.annotations as PodObject | undefined;
  if (m.deletionTimestamp !== undefined || annotations?.['kubernetes.io/config.mirror'] !== undefined) return undefined;
  const next = clone(pod);
  const grace = ((pod.spec as PodObject).terminationGracePeriodSeconds as number | undefined) ?? 30;
  meta(next).deletionGracePeriodSeconds = grace;
  meta(next).deletionTimestamp = podTime(nowMs + grace * 1000);
  bumpResourceVersion(next, rng);
  return next;
}

/** When the store should drop a pod that is being deleted (its deletionTimestamp), or undefined. */
export function deletionDeadline(pod: PodTree): number | undefined {
  const at = meta(pod).deletionTimestamp;
  return typeof at === 'string' ? Date.parse(at) : undefined;
}

