// Container resource requests and limits, and the QoS class the kubelet derives from them.
import type { PodObject } from '../pod/pod-tree';
import type { AppTemplate } from './pod-catalog';
import type { Prng } from './prng';

function quantityCpu(milli: number): string {
  return milli % 1000 === 0 ? String(milli / 1000) : `${milli}m`;
}

function quantityMemory(mi: number): string {
  return mi % 1024 === 0 ? `${mi / 1024}Gi` : `${mi}Mi`;
}

/** BestEffort, Burstable (requests below limits or requests only) or Guaranteed, by the template. */
export function containerResources(app: AppTemplate, tpl: Prng): PodObject {
  if (app.cpuMilli === 0 && app.memoryMi === 0) return {};
  const requests: PodObject = {};
  if (app.cpuMilli > 0) requests.cpu = quantityCpu(app.cpuMilli);
  if (app.memoryMi > 0) requests.memory = quantityMemory(app.memoryMi);
  const shape = tpl.weighted({ requestsOnly: 3, burstable: 4, guaranteed: 2, none: 1 });
  if (shape === 'none') return {};
  if (shape === 'requestsOnly') return { requests };
  if (shape === 'guaranteed') return { limits: { ...requests }, requests };
  const limits: PodObject = {};
  if (app.memoryMi > 0) limits.memory = quantityMemory(app.memoryMi * 2);
  if (app.cpuMilli > 0 && tpl.chance(0.5)) limits.cpu = quantityCpu(app.cpuMilli * 4);
  return { limits, requests };
}

export function podQosClass(containers: PodObject[]): string {
  let any = false;
  let guaranteed = true;
  for (const c of containers) {
    const r = c.resources as PodObject;
    const requests = (r.requests as PodObject | undefined) ?? {};
    const limits = (r.limits as PodObject | undefined) ?? {};
    if (Object.keys(requests).length > 0 || Object.keys(limits).length > 0) any = true;
    for (const k of ['cpu', 'memory']) if (limits[k] === undefined || limits[k] !== (requests[k] ?? limits[k])) guaranteed = false;
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}
