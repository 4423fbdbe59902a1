/**
 * Which pod `get SOURCE POD` means: POD is a UID, NAMESPACE/NAME, or a NAME (in -n NAMESPACE, or in any
 * namespace as long as only one has it: a node's pods span namespaces, so no namespace is assumed).
 */
import { UsageError } from './usage-error';

export interface PodIdentity {
  uid: string;
  namespace: string;
  name: string;
}

export type PodReference = { uid: string } | { namespace?: string; name: string };

/** Reads POD (and -n). A UID or a name never contains '/', so NAMESPACE/NAME is told apart by it. */
export function parsePodReference(text: string, namespace: string | undefined): PodReference[] {
  const slash = text.indexOf('/');
  if (slash >= 0) {
    const ns = text.slice(0, slash);
    const name = text.slice(slash + 1);
    if (!ns || !name || name.includes('/')) throw new UsageError(`'${text}' is not NAMESPACE/NAME; give a pod as UID, NAME or NAMESPACE/NAME`);
    if (namespace !== undefined && namespace !== ns) throw new UsageError(`'${text}' is in namespace ${ns}, but -n says ${namespace}; give one of them`);
    return [{ namespace: ns, name }];
  }
  // Without -n, the text may be either a UID or a name: the UID is tried first.
  return namespace !== undefined ? [{ namespace, name: text }] : [{ uid: text }, { name: text }];
}

export const describeReference = (ref: PodReference): string =>
  'uid' in ref ? `UID ${ref.uid}` : ref.namespace !== undefined ? `${ref.namespace}/${ref.name}` : `name ${ref.name}`;

/**
 * The one pod of `pods` the references name (the first reference that names any); undefined when none does.
 * A name that several namespaces have is a usage error listing them.
 */
export function findPod<T extends PodIdentity>(pods: readonly T[], refs: readonly PodReference[]): T | undefined {
  for (const ref of refs) {
    const hits = pods.filter((p) => ('uid' in ref ? p.uid === ref.uid : p.name === ref.name && (ref.namespace === undefined || p.namespace === ref.namespace)));
    // Pods are followed by uid: of several sharing one, the first is the one (the caller names the others).
    if (hits.length === 1 || ('uid' in ref && hits.length > 1)) return hits[0];
    if (hits.length > 1) {
      const namespaces = [...new Set(hits.map((p) => p.namespace))].sort();
      throw new UsageError(`${hits.length} pods are named ${'name' in ref ? ref.name : ''}, in namespaces ${namespaces.join(', ')}: give NAMESPACE/NAME, e.g. ${namespaces[0]}/${'name' in ref ? ref.name : ''}`);
    }
  }
  return undefined;
}
