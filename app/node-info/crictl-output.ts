/**
 * What crictl prints: `crictl version` (the runtime's name and version) and `crictl ps -a -o json`
 * (every container the runtime has, with the kubelet's labels naming its pod and container).
 */

export interface RuntimeVersion {
  name?: string;
  version?: string;
  apiVersion?: string;
  /** crictl's own version. */
  crictlVersion?: string;
}

/** `crictl version`: `Key:  value` lines (Version, RuntimeName, RuntimeVersion, RuntimeApiVersion). */
export function parseCrictlVersion(text: string): RuntimeVersion {
  const fields = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^\s*(\w+):\s*(.*?)\s*$/.exec(line);
    if (m && m[2]) fields.set(m[1]!, m[2]);
  }
  const out: RuntimeVersion = {};
  if (fields.has('RuntimeName')) out.name = fields.get('RuntimeName')!;
  if (fields.has('RuntimeVersion')) out.version = fields.get('RuntimeVersion')!;
  if (fields.has('RuntimeApiVersion')) out.apiVersion = fields.get('RuntimeApiVersion')!;
  if (fields.has('Version')) out.crictlVersion = fields.get('Version')!;
  if (!out.name && !out.version) throw new Error('crictl version printed no RuntimeName or RuntimeVersion');
  return out;
}

export interface RuntimeContainer {
  id: string;
  name: string;
  attempt?: number;
  /** CONTAINER_RUNNING, CONTAINER_EXITED, ... as the runtime says. */
  state?: string;
  image?: string;
  podSandboxId?: string;
  /** From the kubelet's labels (io.kubernetes.pod.*): absent on a container the kubelet did not create. */
  podUid?: string;
  podNamespace?: string;
  podName?: string;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** `crictl ps -a -o json`: `{"containers": [...]}`. A container without an id is named, not dropped silently. */
export function parseCrictlContainers(text: string): RuntimeContainer[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new Error(`crictl ps did not print JSON: ${(err as Error).message}`);
  }
  const list = (doc as { containers?: unknown } | null)?.containers;
  // crictl prints {} or {"containers": null} for a runtime without containers.
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new Error('crictl ps JSON: "containers" is not a list');
  return list.map((c: Record<string, any>, i) => {
    const id = str(c?.id);
    if (!id) throw new Error(`crictl ps JSON: containers[${i}] has no id`);
    const labels = (c.labels ?? {}) as Record<string, unknown>;
    const out: RuntimeContainer = { id, name: str(c.metadata?.name) ?? str(labels['io.kubernetes.container.name']) ?? '' };
    if (typeof c.metadata?.attempt === 'number') out.attempt = c.metadata.attempt;
    const state = str(c.state);
    if (state) out.state = state;
    const image = str(c.image?.image) ?? str(c.imageRef);
    if (image) out.image = image;
    const sandbox = str(c.podSandboxId);
    if (sandbox) out.podSandboxId = sandbox;
    const uid = str(labels['io.kubernetes.pod.uid']);
    if (uid) out.podUid = uid;
    const ns = str(labels['io.kubernetes.pod.namespace']);
    if (ns) out.podNamespace = ns;
    const pod = str(labels['io.kubernetes.pod.name']);
    if (pod) out.podName = pod;
    return out;
  });
}
