/**
 * CPU and memory from the kubelet's `/stats/summary` (stats/v1alpha1 Summary), typed per pod and per
 * container. A value the kubelet left out stays undefined: shown as absent, never as zero.
 */
export interface Usage {
  /** Cores in use (usageNanoCores / 1e9). */
  cpuCores?: number;
  /** Working set bytes, what the kubelet evicts on and `kubectl top` shows. */
  memoryWorkingSetBytes?: number;
  /** When the kubelet sampled it (RFC 3339). */
  time?: string;
}

export interface ContainerUsage extends Usage {
  name: string;
}

export interface PodUsage extends Usage {
  uid: string;
  namespace: string;
  name: string;
  containers: ContainerUsage[];
}

export interface StatsSummary {
  node: Usage & { name?: string; memoryAvailableBytes?: number };
  /** By pod UID. */
  pods: Map<string, PodUsage>;
}

export class StatsFormatError extends Error {
  override name = 'StatsFormatError';
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function usage(entry: Json): Usage {
  const cpu = obj(entry.cpu);
  const memory = obj(entry.memory);
  const nano = num(cpu?.usageNanoCores);
  const u: Usage = {};
  if (nano !== undefined) u.cpuCores = nano / 1e9;
  const ws = num(memory?.workingSetBytes);
  if (ws !== undefined) u.memoryWorkingSetBytes = ws;
  const time = str(cpu?.time) ?? str(memory?.time);
  if (time !== undefined) u.time = time;
  return u;
}

export function parseStatsSummary(text: string): StatsSummary {
  let root: Json | undefined;
  try {
    root = obj(JSON.parse(text));
  } catch (err) {
    throw new StatsFormatError(`/stats/summary is not JSON: ${(err as Error).message}`);
  }
  if (!root) throw new StatsFormatError('/stats/summary is not a JSON object');
  const nodeJson = obj(root.node) ?? {};
  const node: StatsSummary['node'] = { ...usage(nodeJson) };
  const nodeName = str(nodeJson.nodeName);
  if (nodeName !== undefined) node.name = nodeName;
  const available = num(obj(nodeJson.memory)?.availableBytes);
  if (available !== undefined) node.memoryAvailableBytes = available;
  const pods = new Map<string, PodUsage>();
  for (const p of Array.isArray(root.pods) ? root.pods : []) {
    const entry = obj(p);
    const ref = obj(entry?.podRef);
    const uid = str(ref?.uid);
    if (!entry || !ref || !uid) continue;
    const containers = (Array.isArray(entry.containers) ? entry.containers : []).flatMap((c) => {
      const cj = obj(c);
      const name = str(cj?.name);
      return cj && name ? [{ name, ...usage(cj) }] : [];
    });
    pods.set(uid, { uid, namespace: str(ref.namespace) ?? '', name: str(ref.name) ?? '', containers, ...usage(entry) });
  }
  return { node, pods };
}
