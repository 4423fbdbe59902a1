import type { PodObject, PodTree } from '../pod/pod-tree';
import type { PodRow } from './pods';
import { listAt, numAt, objAt, strAt, stringMapAt } from './pod-tree-access';

/** The controlling owner (or the first one), as kubectl and k9s show it. */
export function ownerOf(meta: PodObject): { kind: string; name: string } {
  const owners = listAt(meta.ownerReferences);
  const owner = owners.find((o) => o.controller === true) ?? owners[0];
  return { kind: strAt(owner?.kind), name: strAt(owner?.name) };
}

/**
 * Static pods come from files on the node: through the API server they appear as mirror pods
 * (annotation kubernetes.io/config.mirror); the kubelet itself reports their source as file/http.
 */
export function isStaticPod(meta: PodObject): boolean {
  const annotations = stringMapAt(meta.annotations);
  const source = annotations['kubernetes.io/config.source'];
  return 'kubernetes.io/config.mirror' in annotations || source === 'file' || source === 'http';
}

function terminatedReason(state: PodObject, prefix: string): string {
  const reason = strAt(state.reason);
  if (reason) return prefix + reason;
  const signal = numAt(state.signal);
  return signal !== 0 ? `${prefix}Signal:${signal}` : `${prefix}ExitCode:${numAt(state.exitCode)}`;
}

const isDeleting = (meta: PodObject): boolean => meta.deletionTimestamp !== undefined && meta.deletionTimestamp !== null;

const conditionTrue = (status: PodObject, type: string): boolean =>
  listAt(status.conditions).some((c) => c.type === type && c.status === 'True');

/** What `kubectl get pods` prints in its STATUS, READY and RESTARTS columns. */
export interface KubectlColumns {
  status: string;
  ready: number;
  /** Containers plus sidecars (restartable init containers). */
  total: number;
  restarts: number;
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

  let initializing = false;
  for (const [i, cs] of listAt(status.initContainerStatuses).entries()) {
    const state = objAt(cs.state);
    const terminated = state.terminated === undefined ? undefined : objAt(state.terminated);
    const waiting = state.waiting === undefined ? undefined : objAt(state.waiting);
    const sidecar = sidecars.has(strAt(cs.name));
    restarts += numAt(cs.restartCount);
    if (sidecar) sidecarRestarts += numAt(cs.restartCount);
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
    let hasRunning = false;
    for (const cs of listAt(status.containerStatuses).reverse()) {
      restarts += numAt(cs.restartCount);
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
  return { status: reason, ready, total, restarts };
}

/** The compact table row for a decoded pod. */
export function podRowFromTree(pod: PodTree): PodRow {
  const meta = objAt(pod.metadata);
  const spec = objAt(pod.spec);
  const status = objAt(pod.status);
  const columns = kubectlColumns(pod);
  const owner = ownerOf(meta);
  const created = meta.creationTimestamp;
  return {
    uid: strAt(meta.uid),
    namespace: strAt(meta.namespace),
    name: strAt(meta.name),
    phase: strAt(status.phase),
    status: columns.status,
    ready: columns.ready,
    total: columns.total,
    restarts: columns.restarts,
    createdAt: typeof created === 'string' ? created : null,
    podIP: strAt(status.podIP),
    node: strAt(spec.nodeName),
    ownerKind: owner.kind,
    ownerName: owner.name,
    isStatic: isStaticPod(meta),
    labels: stringMapAt(meta.labels),
    deleting: isDeleting(meta),
  };
}
