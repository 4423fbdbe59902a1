/**
 * `/runningpods/` (what the container runtime runs) against `/pods` (what the kubelet manages): a pod
 * the runtime still runs that the kubelet no longer lists is what an operator looks for in an incident
 * (a stuck teardown, a kubelet that lost track); a pod the kubelet shows Running that the runtime does
 * not run is the other way round.
 */
import type { RunningPod } from './kubelet-rest-client';

/** A pod the kubelet lists: who it is and its status.phase ('' when absent). */
export interface ListedPod {
  uid: string;
  namespace: string;
  name: string;
  phase: string;
}

export interface RuntimeDifference {
  /** Run by the runtime, not listed by the kubelet. */
  runtimeOnly: RunningPod[];
  /** Listed by the kubelet in phase Running, not run by the runtime. */
  notRunning: ListedPod[];
}

export function runtimeDifference(running: readonly RunningPod[], listed: readonly ListedPod[]): RuntimeDifference {
  const listedUids = new Set(listed.map((p) => p.uid));
  const runningUids = new Set(running.map((p) => p.uid));
  return {
    runtimeOnly: running.filter((p) => !listedUids.has(p.uid)),
    notRunning: listed.filter((p) => p.phase === 'Running' && !runningUids.has(p.uid)),
  };
}
