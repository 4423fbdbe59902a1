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

/** kubectl's STATUS column (the rules of `kubectl get pods`, printPod). */
export function kubectlStatus(pod: PodTree): string {
  const meta = objAt(pod.metadata);
  const spec = objAt(pod.spec);
  const status = objAt(pod.status);
  let reason = strAt(status.reason) || strAt(status.phase);

  const initSpecs = listAt(spec.initContainers);
  const initStatuses = listAt(status.initContainerStatuses);
  let initializing = false;
  for (const [i, cs] of initStatuses.entries()) {
    const state = objAt(cs.state);
    const terminated = state.terminated === undefined ? undefined : objAt(state.terminated);
    const waiting = state.waiting === undefined ? undefined : objAt(state.waiting);
    const sidecar = initSpecs.find((c) => c.name === cs.name)?.restartPolicy === 'Always';
    if (terminated && numAt(terminated.exitCode) === 0) continue;
    if (sidecar && cs.started === true) continue;
    initializing = true;
    if (terminated) reason = terminatedReason(terminated, 'Init:');
    else if (waiting && strAt(waiting.reason) && waiting.reason !== 'PodInitializing') reason = `Init:${strAt(waiting.reason)}`;
    else reason = `Init:${i}/${initSpecs.length}`;
    break;
  }

  if (!initializing) {
    let hasRunning = false;
    for (const cs of listAt(status.containerStatuses).reverse()) {
      const state = objAt(cs.state);
      if (state.waiting !== undefined && strAt(objAt(state.waiting).reason)) reason = strAt(objAt(state.waiting).reason);
      else if (state.terminated !== undefined) reason = terminatedReason(objAt(state.terminated), '');
      else if (state.running !== undefined && cs.ready === true) hasRunning = true;
    }
    if (reason === 'Completed' && hasRunning) {
      const ready = listAt(status.conditions).find((c) => c.type === 'Ready');
      reason = ready?.status === 'True' ? 'Running' : 'NotReady';
    }
  }

  if (meta.deletionTimestamp !== undefined && meta.deletionTimestamp !== null) {
    reason = status.reason === 'NodeLost' ? 'Unknown' : 'Terminating';
  }
  return reason;
}

/** The compact table row for a decoded pod. */
export function podRowFromTree(pod: PodTree): PodRow {
  const meta = objAt(pod.metadata);
  const spec = objAt(pod.spec);
  const status = objAt(pod.status);
  const statuses = listAt(status.containerStatuses);
  const restarts = [...listAt(status.initContainerStatuses), ...statuses].reduce((n, cs) => n + numAt(cs.restartCount), 0);
  const owner = ownerOf(meta);
  const created = meta.creationTimestamp;
  return {
    uid: strAt(meta.uid),
    namespace: strAt(meta.namespace),
    name: strAt(meta.name),
    phase: strAt(status.phase),
    status: kubectlStatus(pod),
    ready: statuses.filter((cs) => cs.ready === true).length,
    total: Math.max(listAt(spec.containers).length, statuses.length),
    restarts,
    createdAt: typeof created === 'string' ? created : null,
    podIP: strAt(status.podIP),
    node: strAt(spec.nodeName),
    ownerKind: owner.kind,
    ownerName: owner.name,
    isStatic: isStaticPod(meta),
    labels: stringMapAt(meta.labels),
    deleting: meta.deletionTimestamp !== undefined && meta.deletionTimestamp !== null,
  };
}
