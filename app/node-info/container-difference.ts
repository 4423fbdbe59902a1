/**
 * The runtime's containers (`crictl ps -a`) against the kubelet's pods (the Pods API or REST list): a
 * container the runtime has that no pod's status names (a leaked or orphaned container, a pod the kubelet
 * forgot), and a container a pod's status names that the runtime does not have (removed under the kubelet).
 * Matched by container ID: the kubelet's status holds `<runtime>://<id>` for the current and last instance.
 */
import type { RuntimeContainer } from './crictl-output';

/** A container as a pod's status names it. */
export interface KubeletContainer {
  id: string;
  podUid: string;
  podNamespace: string;
  podName: string;
  container: string;
  /** The instance before the current one (lastState.terminated). */
  previous: boolean;
}

export interface ContainerDifference {
  runtimeContainers: number;
  kubeletContainers: number;
  /** The runtime has them; no pod of the kubelet names them. */
  runtimeOnly: RuntimeContainer[];
  /** A pod's status names them (the current instance); the runtime does not have them. */
  kubeletOnly: KubeletContainer[];
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined);
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(obj).filter((o): o is Obj => !!o) : []);

/** `containerd://abc` → `abc`. */
const bareId = (id: string) => id.replace(/^[a-z0-9.+-]+:\/\//i, '');

/** The container IDs a pod (as kubectl's JSON) names in its statuses: init, app and ephemeral, current and last. */
export function kubeletContainers(pod: unknown): KubeletContainer[] {
  const p = obj(pod);
  const meta = obj(p?.metadata) ?? {};
  const status = obj(p?.status) ?? {};
  const who = { podUid: String(meta.uid ?? ''), podNamespace: String(meta.namespace ?? ''), podName: String(meta.name ?? '') };
  const out: KubeletContainer[] = [];
  for (const key of ['initContainerStatuses', 'containerStatuses', 'ephemeralContainerStatuses']) {
    for (const s of list(status[key])) {
      const container = String(s.name ?? '');
      if (typeof s.containerID === 'string' && s.containerID) out.push({ id: bareId(s.containerID), ...who, container, previous: false });
      const last = obj(obj(s.lastState)?.terminated);
      if (typeof last?.containerID === 'string' && last.containerID) out.push({ id: bareId(last.containerID), ...who, container, previous: true });
    }
  }
  return out;
}

export function containerDifference(runtime: readonly RuntimeContainer[], pods: readonly unknown[]): ContainerDifference {
  const named = pods.flatMap(kubeletContainers);
  const namedIds = new Set(named.map((c) => c.id));
  const runtimeIds = new Set(runtime.map((c) => c.id));
  return {
    runtimeContainers: runtime.length,
    kubeletContainers: named.filter((c) => !c.previous).length,
    runtimeOnly: runtime.filter((c) => !namedIds.has(c.id)),
    // A previous instance may be garbage-collected by the runtime as the kubelet's policy says: only current ones count.
    kubeletOnly: named.filter((c) => !c.previous && !runtimeIds.has(c.id)),
  };
}
