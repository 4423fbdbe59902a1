/**
 * Drift: the same workload set up differently on different sources. Compared per container: the image,
 * the resources, the command and arguments, the environment; and a DaemonSet (or a control-plane static
 * pod) missing where it should run. A value a source did not send (a field mask left it out) is not
 * compared, never taken as empty. Browser-safe.
 */
import { listAt, objAt, strAt } from '../contract/pod-tree-access';
import type { PodTree, PodValue } from '../pod/pod-tree';
import type { WorkloadId } from './workload-identity';

export type DriftKind = 'image' | 'resources' | 'args' | 'env' | 'missing';

export interface Drift {
  kind: DriftKind;
  /** The container it concerns; absent for 'missing'. */
  container?: string;
  /**
   * What each source has, by source id: the value ('|'-joined when its replicas differ among themselves),
   * or for 'missing' 'present' / 'missing'. Sources without the workload or without the field are left out.
   */
  values: Record<string, string>;
}

/** Kinds whose pods on different sources come from one template, so a difference is drift. Bare pods are each their own. */
const TEMPLATED = new Set(['DaemonSet', 'Deployment', 'ReplicaSet', 'StatefulSet', 'CronJob', 'Job', 'Static']);

/** JSON with sorted keys, so equal values compare equal whatever order they came in. */
export function canonicalJson(v: PodValue | undefined): string {
  if (v === undefined) return 'null';
  if (typeof v === 'bigint') return v.toString();
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.keys(v).filter((k) => v[k] !== undefined).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson(v[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/** Each compared aspect of a container, or undefined when the source did not send it. */
const ASPECTS: Record<Exclude<DriftKind, 'missing'>, (c: Record<string, PodValue | undefined>) => string | undefined> = {
  image: (c) => (typeof c.image === 'string' ? c.image : undefined),
  resources: (c) => (c.resources === undefined ? undefined : canonicalJson(c.resources)),
  // An image's own entrypoint is used when both are absent; with the image present, absent means default.
  args: (c) => (c.image === undefined && c.command === undefined && c.args === undefined ? undefined : canonicalJson({ command: c.command ?? null, args: c.args ?? null })),
  env: (c) => (c.image === undefined && c.env === undefined ? undefined : canonicalJson(c.env ?? [])),
};

function containersOf(pod: PodTree): Map<string, Record<string, PodValue | undefined>> {
  const spec = objAt(pod.spec);
  const out = new Map<string, Record<string, PodValue | undefined>>();
  for (const c of [...listAt(spec.initContainers), ...listAt(spec.containers)]) out.set(strAt(c.name), c);
  return out;
}

export interface DriftContext {
  /** Source ids, in order. */
  sources: string[];
  /** Per source: whether the workload should run there (missing counts as drift); null: no such rule. */
  expected: boolean[] | null;
}

export function findDrift(workload: WorkloadId, podsPerSource: (PodTree[] | null)[], ctx: DriftContext): Drift[] {
  const drift: Drift[] = [];
  if (ctx.expected) {
    const missing = ctx.expected.some((should, i) => should && !podsPerSource[i]);
    if (missing) {
      const values: Record<string, string> = {};
      ctx.expected.forEach((should, i) => {
        if (should) values[ctx.sources[i]!] = podsPerSource[i] ? 'present' : 'missing';
      });
      drift.push({ kind: 'missing', values });
    }
  }
  if (!TEMPLATED.has(workload.kind)) return drift;
  const containerNames = new Set<string>();
  const perSource = podsPerSource.map((pods) => (pods ? pods.map(containersOf) : null));
  for (const pods of perSource) for (const containers of pods ?? []) for (const name of containers.keys()) containerNames.add(name);
  for (const container of [...containerNames].sort()) {
    for (const [kind, read] of Object.entries(ASPECTS) as [Exclude<DriftKind, 'missing'>, (typeof ASPECTS)['image']][]) {
      const values: Record<string, string> = {};
      perSource.forEach((pods, i) => {
        const seen = new Set<string>();
        for (const containers of pods ?? []) {
          const c = containers.get(container);
          const v = c ? read(c) : undefined;
          if (v !== undefined) seen.add(v);
        }
        if (seen.size) values[ctx.sources[i]!] = [...seen].sort().join(' | ');
      });
      if (new Set(Object.values(values)).size > 1) drift.push({ kind, container, values });
    }
  }
  return drift;
}
