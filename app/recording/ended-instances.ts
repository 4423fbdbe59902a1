/**
 * The container instances a pod's status says have ended: a terminated current state (a pod that failed or
 * completed, an init container done) and a terminated last state (the instance before a restart). Each is
 * named by its container ID, so the flight recorder captures an instance's log once however often the pod
 * changes, and by its number on the node (`<restartCount>.log`), as the kubelet reports it: the status's
 * restartCount is the attempt of the container it names (containerID). So a terminated state is that
 * attempt; a last state is the one before it, or that same attempt while the container waits to restart
 * (in back-off the status names the dead container, which is also its last state).
 */
import type { PodObject } from '../pod/pod-tree';

export interface EndedInstance {
  container: string;
  /** As the status gives it (`containerd://…`). */
  containerID: string;
  /** Its log file's number on the node. */
  instance: number;
  /** `restarted`: a newer instance runs (lastState); `ended`: the container's current state is terminated. */
  ended: 'restarted' | 'ended';
  reason?: string;
  exitCode?: number;
  finishedAt?: string;
}

const STATUS_LISTS = ['initContainerStatuses', 'containerStatuses', 'ephemeralContainerStatuses'] as const;
const obj = (v: unknown): PodObject | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as PodObject) : undefined);

export function endedInstances(pod: PodObject): EndedInstance[] {
  const status = obj(pod.status) ?? {};
  const out: EndedInstance[] = [];
  for (const key of STATUS_LISTS) {
    const list = Array.isArray(status[key]) ? (status[key] as unknown[]) : [];
    for (const s of list.map(obj).filter((o): o is PodObject => o !== undefined)) {
      const container = typeof s.name === 'string' ? s.name : '';
      const restarts = typeof s.restartCount === 'number' ? s.restartCount : 0;
      const found = (state: unknown, instance: number, ended: EndedInstance['ended']) => {
        const t = obj(obj(state)?.terminated);
        // Without an ID the container never ran (it could not be created): it has no log.
        if (!t || typeof t.containerID !== 'string' || !t.containerID || !container || instance < 0) return;
        out.push({
          container,
          containerID: t.containerID,
          instance,
          ended,
          ...(typeof t.reason === 'string' ? { reason: t.reason } : {}),
          ...(typeof t.exitCode === 'number' ? { exitCode: t.exitCode } : {}),
          ...(typeof t.finishedAt === 'string' ? { finishedAt: t.finishedAt } : {}),
        });
      };
      const lastId = obj(obj(s.lastState)?.terminated)?.containerID;
      found(s.state, restarts, 'ended');
      found(s.lastState, lastId !== undefined && lastId === s.containerID ? restarts : restarts - 1, 'restarted');
    }
  }
  return out;
}
