// Builders for the parts of a pod's status the kubelet writes, shared by the generator (initial pods)
// and the churn (later changes), so both produce the same shapes as a real kubelet.
import type { PodObject, PodTree } from '../pod/pod-tree';
import { podTime } from './pod-time';

export function runningState(startedMs: number): PodObject {
  return { running: { startedAt: podTime(startedMs) } };
}

export function waitingState(reason: string, message?: string): PodObject {
  return { waiting: message === undefined ? { reason } : { message, reason } };
}

export interface Termination {
  containerID?: string;
  exitCode: number;
  reason: string;
  startedMs: number;
  finishedMs: number;
  message?: string;
}

export function terminatedState(t: Termination): PodObject {
  const terminated: PodObject = {};
  if (t.containerID !== undefined) terminated.containerID = t.containerID;
  terminated.exitCode = t.exitCode;
  terminated.finishedAt = podTime(t.finishedMs);
  if (t.message !== undefined) terminated.message = t.message;
  terminated.reason = t.reason;
  terminated.startedAt = podTime(t.startedMs);
  return { terminated };
}

export interface ConditionDetail {
  reason?: string;
  message?: string;
}

export function condition(type: string, status: boolean, ms: number, detail: ConditionDetail = {}): PodObject {
  const c: PodObject = { lastProbeTime: null, lastTransitionTime: podTime(ms) };
  if (detail.message !== undefined) c.message = detail.message;
  if (detail.reason !== undefined) c.reason = detail.reason;
  c.status = status ? 'True' : 'False';
  c.type = type;
  return c;
}

/** The detail the kubelet puts on Ready/ContainersReady when some containers are not ready. */
export function notReadyDetail(unready: string[]): ConditionDetail {
  return { reason: 'ContainersNotReady', message: `containers with unready status: [${unready.join(' ')}]` };
}

/** The pod's status.conditions entry of one type, if it has one. */
export function findCondition(pod: PodTree, type: string): PodObject | undefined {
  const conditions = (pod.status as PodObject | undefined)?.conditions;
  if (!Array.isArray(conditions)) return undefined;
  return conditions.find((c) => (c as PodObject).type === type) as PodObject | undefined;
}

export function containerStatuses(pod: PodTree): PodObject[] {
  const list = (pod.status as PodObject | undefined)?.containerStatuses;
  return Array.isArray(list) ? (list as PodObject[]) : [];
}
