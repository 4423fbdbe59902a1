/**
 * Drift: the same workload set up differently on different sources. Compared per container: the image,
 * the resources, the command and arguments, the environment; and a DaemonSet (or a control-plane static
 * pod) missing where it should run. A value a source did not send (a field mask left it out) is not
 * compared, never taken as empty. Browser-safe.
 */
import { ownerOf } from '../pod/view/pod-metadata';
import { listAt, objAt, strAt } from '../pod/view/pod-tree-access';
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

/** JSON with sorted keys, so equal values compare equal whatever order they came in. Built in one string: it runs per container of every pod a fleet takes in. */
export function canonicalJson(v: PodValue | undefined): string {
  if (v === undefined) return 'null';
  if (typeof v === 'bigint') return v.toString();
  if (Array.isArray(v)) {
    let s = '[';
    for (let i = 0; i < v.length; i++) s += (i ? ',' : '') + canonicalJson(v[i]);
    return `${s}]`;
  }
  if (v !== null && typeof v === 'object') {
    let s = '{';
    for (const k of Object.keys(v).sort()) {
      const x = v[k];
      if (x !== undefined) s += `${s.length > 1 ? ',' : ''}${JSON.stringify(k)}:${canonicalJson(x)}`;
    }
    return `${s}}`;
  }
  return JSON.stringify(v);
}

type Aspect = Exclude<DriftKind, 'missing'>;

/** Each compared aspect of a container, or undefined when the source did not send it. */
const ASPECTS: Record<Aspect, (c: Record<string, PodValue | undefined>) => string | undefined> = {
  image: (c) => (typeof c.image === 'string' ? c.image : undefined),
  resources: (c) => (c.resources === undefined ? undefined : canonicalJson(c.resources)),
  // An image's own entrypoint is used when both are absent; with the image present, absent means default.
  args: (c) => (c.image === undefined && c.command === undefined && c.args === undefined ? undefined : canonicalJson({ command: c.command ?? null, args: c.args ?? null })),
  env: (c) => (c.image === undefined && c.env === undefined ? undefined : canonicalJson(c.env ?? [])),
};

/** Every field of a pod containerAspects reads: each container's name and the fields its aspects are read from. */
export const CONTAINER_READ_PATHS = ['containers', 'initContainers'].flatMap((list) =>
  ['name', 'image', 'resources', 'command', 'args', 'env'].map((f) => `spec.${list}.${f}`),
);

/** A name as a whole word of a value (a path or host name may go on with a dot), not part of a longer name. */
function wholeName(name: string): RegExp {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\w-])${escaped}(?![\\w-])`, 'g');
}

/** `text` with `name` as a whole word replaced by `token`; `text` itself when it holds none (most texts). */
function replaceName(text: string, name: string, token: string): string {
  return name && text.includes(name) ? text.replace(wholeName(name), token) : text;
}

/** A pod's containers by name, each with the aspects drift compares (only those the source sent). */
export type ContainerAspects = ReadonlyMap<string, Readonly<Partial<Record<Aspect, string>>>>;

/**
 * Each container's aspects as the source sent them, before the pod's per-run names are replaced (withRunNames):
 * what a template's replicas have alike. `share` may hand back an equal string held already.
 */
export function sentContainerAspects(pod: PodTree, share: (text: string) => string = (text) => text): ContainerAspects {
  const spec = objAt(pod.spec);
  const out = new Map<string, Partial<Record<Aspect, string>>>();
  for (const c of [...listAt(spec.initContainers), ...listAt(spec.containers)]) {
    const aspects: Partial<Record<Aspect, string>> = {};
    for (const [kind, read] of Object.entries(ASPECTS) as [Aspect, (typeof ASPECTS)['image']][]) {
      const v = read(c);
      if (v !== undefined) aspects[kind] = share(v);
    }
    out.set(share(strAt(c.name)), aspects);
  }
  return out;
}

/**
 * `aspects` (a pod's, as sent) with the pod's per-run names in their env replaced by what they stand for:
 * `aspects` itself when no env holds one, as in most pods.
 */
export function withRunNames(aspects: ContainerAspects, pod: PodTree, share: (text: string) => string = (text) => text): ContainerAspects {
  // Names a pod gets per run or per replica: its own (generated) name, and a CronJob run's Job name
  // (`<cronjob>-<minutes>`), as workload names are normalised (workload-identity.ts). Otherwise every CronJob
  // run differs from the last in its env. The longer first: a Job's pod is named after the Job.
  const meta = objAt(pod.metadata);
  const podName = strAt(meta.name);
  const owner = ownerOf(meta);
  const jobName = owner.kind === 'Job' ? owner.name : '';
  let out: Map<string, Readonly<Partial<Record<Aspect, string>>>> | undefined;
  // Loops, not closures: this runs for every pod a fleet takes in.
  for (const [container, a] of aspects) {
    if (a.env === undefined) continue;
    const env = replaceName(replaceName(a.env, podName, '<pod-name>'), jobName, '<job-name>');
    if (env === a.env) continue;
    out ??= new Map(aspects);
    out.set(container, { ...a, env: share(env) });
  }
  return out ?? aspects;
}

/**
 * What drift reads of a pod: kept per pod by the core, so a matrix rebuilt under churn reads only the pods
 * that changed. `share` may hand back an equal string held already (many pods have the same image, env).
 */
export function containerAspects(pod: PodTree, share: (text: string) => string = (text) => text): ContainerAspects {
  return withRunNames(sentContainerAspects(pod, share), pod, share);
}

export interface DriftContext {
  /** Source ids, in order. */
  sources: string[];
  /** Per source: whether the workload should run there (missing counts as drift); null: no such rule. */
  expected: boolean[] | null;
}

/** The workload's drift, from its pods' containers on each source (null: none of its pods there). */
export function findDrift(workload: WorkloadId, podsPerSource: (readonly ContainerAspects[] | null)[], ctx: DriftContext): Drift[] {
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
  for (const pods of podsPerSource) for (const containers of pods ?? []) for (const name of containers.keys()) containerNames.add(name);
  for (const container of [...containerNames].sort()) {
    for (const kind of Object.keys(ASPECTS) as Aspect[]) {
      const values: Record<string, string> = {};
      podsPerSource.forEach((pods, i) => {
        const seen = new Set<string>();
        for (const containers of pods ?? []) {
          const v = containers.get(container)?.[kind];
          if (v !== undefined) seen.add(v);
        }
        if (seen.size) values[ctx.sources[i]!] = [...seen].sort().join(' | ');
      });
      if (new Set(Object.values(values)).size > 1) drift.push({ kind, container, values });
    }
  }
  return drift;
}
