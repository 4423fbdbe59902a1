import type { PodObject, PodTree } from '../pod-tree';
import { isDeleting } from './pod-metadata';
import { listAt, numAt, objAt, strAt } from './pod-tree-access';

function terminatedReason(state: PodObject, prefix: string): string {
  const reason = strAt(state.reason);
  if (reason) return prefix + reason;
  const signal = numAt(state.signal);
  return signal !== 0 ? `${prefix}Signal:${signal}` : `${prefix}ExitCode:${numAt(state.exitCode)}`;
}

const conditionTrue = (status: PodObject, type: string): boolean =>
  listAt(status.conditions).some((c) => c.type === type && c.status === 'True');

/** What `kubectl get pods` prints in its STATUS, READY and RESTARTS columns. */
export interface KubectlColumns {
  status: string;
  ready: number;
  /** Containers plus sidecars (restartable init containers). */
  total: number;
  restarts: number;
  /** When the most recent counted restart's previous run ended (kubectl's "5 (3m ago)"); null when no status says. */
  lastRestartAt: string | null;
}

/** `latest`, or when the container's previous run ended if that is later: kubectl's last restart time. */
function laterRestart(latest: string | null, cs: PodObject): string | null {
  const last = objAt(objAt(cs.lastState).terminated);
  const at = typeof last.finishedAt === 'string' ? last.finishedAt : null;
  return at !== null && (latest === null || Date.parse(at) > Date.parse(latest)) ? at : latest;
}

/**
 * kubectl's printPod, rule for rule: sidecars count in READY and RESTARTS, finished regular init
 * containers only while the pod initializes, a scheduling gate and a lost node have their own words,
 * and a pod that already finished is not shown as Terminating.
 */
export function kubectlColumns(pod: PodTree): KubectlColumns {
  const meta = objAt(pod.metadata);
  const spec = objAt(pod.spec);
  const status = objAt(pod.status);
  const phase = strAt(status.phase);
  let reason = strAt(status.reason) || phase;
  if (listAt(status.conditions).some((c) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated')) reason = 'SchedulingGated';

  const initSpecs = listAt(spec.initContainers);
  const sidecars = new Set(initSpecs.filter((c) => c.restartPolicy === 'Always').map((c) => strAt(c.name)));
  // The statuses stand in for a spec a field mask left out.
  const total = Math.max(listAt(spec.containers).length, listAt(status.containerStatuses).length) + sidecars.size;
  let ready = 0;
  let restarts = 0;
  let sidecarRestarts = 0;
  let lastRestartAt: string | null = null;
  let sidecarLastRestartAt: string | null = null;

  let initializing = false;
  for (const [i, cs] of listAt(status.initContainerStatuses).entries()) {
    const state = objAt(cs.state);
    const terminated = state.terminated === undefined ? undefined : objAt(state.terminated);
    const waiting = state.waiting === undefined ? undefined : objAt(state.waiting);
    const sidecar = sidecars.has(strAt(cs.name));
    restarts += numAt(cs.restartCount);
    lastRestartAt = laterRestart(lastRestartAt, cs);
    if (sidecar) {
      sidecarRestarts += numAt(cs.restartCount);
      sidecarLastRestartAt = laterRestart(sidecarLastRestartAt, cs);
    }
    if (terminated && numAt(terminated.exitCode) === 0) continue;
    if (sidecar && cs.started === true) {
      if (cs.ready === true) ready++;
      continue;
    }
    initializing = true;
    if (terminated) reason = terminatedReason(terminated, 'Init:');
    else if (waiting && strAt(waiting.reason) && waiting.reason !== 'PodInitializing') reason = `Init:${strAt(waiting.reason)}`;
    else reason = `Init:${i}/${initSpecs.length}`;
    break;
  }

  if (!initializing || conditionTrue(status, 'Initialized')) {
    restarts = sidecarRestarts;
    lastRestartAt = sidecarLastRestartAt;
    let hasRunning = false;
    for (const cs of listAt(status.containerStatuses).reverse()) {
      restarts += numAt(cs.restartCount);
      lastRestartAt = laterRestart(lastRestartAt, cs);
      const state = objAt(cs.state);
      const waitingReason = state.waiting === undefined ? '' : strAt(objAt(state.waiting).reason);
      if (waitingReason) reason = waitingReason;
      else if (state.terminated !== undefined) reason = terminatedReason(objAt(state.terminated), '');
      // A field mask may keep `ready` without `state`; kubectl never sees such a pod, so trust `ready` then.
      else if (cs.ready === true && (state.running !== undefined || cs.state === undefined)) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed' && hasRunning) reason = conditionTrue(status, 'Ready') ? 'Running' : 'NotReady';
  }

  if (isDeleting(meta)) {
    if (status.reason === 'NodeLost') reason = 'Unknown';
    else if (phase !== 'Succeeded' && phase !== 'Failed') reason = 'Terminating';
  }
  return { status: reason, ready, total, restarts, lastRestartAt };
}
