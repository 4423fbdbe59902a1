/**
 * The kubelet's log layout: `<podLogsDir>/<namespace>_<name>_<uid>/<container>/<restartCount>.log`, rotated
 * files beside as `<restartCount>.log.<YYYYMMDD-hhmmss>[.gz]`. Every name that goes into a path is checked
 * against Kubernetes' own rules first, so pod data can never steer a path (no `/`, no `..`, no option-like `-`).
 */
import { LogAccessError, type LogFileAccess } from './log-file-access';

export const DEFAULT_POD_LOGS_DIR = '/var/log/pods';

const DNS_LABEL = /^[a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^(?=.{1,253}$)[a-z0-9](?:[-a-z0-9]*[a-z0-9])?(?:\.[a-z0-9](?:[-a-z0-9]*[a-z0-9])?)*$/;
// API UIDs are RFC 4122 text; a static pod's is the md5 hex the kubelet computes.
const UID = /^[0-9a-f](?:[0-9a-f-]{0,62}[0-9a-f])?$/;

export const isNamespace = (s: string) => DNS_LABEL.test(s);
export const isPodName = (s: string) => DNS_SUBDOMAIN.test(s);
export const isPodUid = (s: string) => UID.test(s);
export const isContainerName = (s: string) => DNS_LABEL.test(s);

/** A pod log directory on the node, its parts checked. */
export interface PodLogDir {
  namespace: string;
  name: string;
  uid: string;
  path: string;
}

/** `ns_name_uid`, or undefined for a name that is not one (other files, or names that break the rules). */
export function parsePodDirName(entry: string): Omit<PodLogDir, 'path'> | undefined {
  const parts = entry.split('_');
  if (parts.length !== 3) return undefined;
  const [namespace, name, uid] = parts as [string, string, string];
  return isNamespace(namespace) && isPodName(name) && isPodUid(uid) ? { namespace, name, uid } : undefined;
}

/** Checks --log-dir: absolute and clean, as the kubelet requires of podLogsDir. */
export function checkLogsDir(dir: string): string {
  if (!dir.startsWith('/') || dir.split('/').some((p) => p === '.' || p === '..') || /[\0\n]/.test(dir)) {
    throw new LogAccessError(`bad log directory '${dir}'`, 'Give an absolute path without . or .. parts, like the kubelet\'s podLogsDir (default /var/log/pods).', 'BAD_INPUT');
  }
  return dir.length > 1 ? dir.replace(/\/+$/, '') : dir;
}

/** The pods that have a log directory, in name order. */
export async function listPodLogDirs(access: LogFileAccess, logsDir: string): Promise<PodLogDir[]> {
  const entries = await access.list(logsDir);
  if (!entries) throw new LogAccessError(`${logsDir} does not exist on ${access.where}`, 'Check --log-dir: the kubelet\'s podLogsDir (default /var/log/pods).', 'NOT_FOUND');
  return entries.flatMap((e) => {
    const p = parsePodDirName(e);
    return p ? [{ ...p, path: `${logsDir}/${e}` }] : [];
  }).sort((a, b) => (a.namespace + '/' + a.name < b.namespace + '/' + b.name ? -1 : 1));
}

/** POD as `namespace/name`, a UID or a bare name (any namespace, when only one has it). */
export async function findPodLogDir(access: LogFileAccess, logsDir: string, pod: string): Promise<PodLogDir> {
  const slash = pod.indexOf('/');
  const ns = slash >= 0 ? pod.slice(0, slash) : undefined;
  const name = slash >= 0 ? pod.slice(slash + 1) : pod;
  if ((ns !== undefined && !isNamespace(ns)) || (!isPodName(name) && !isPodUid(name))) {
    throw new LogAccessError(`'${pod}' is not a pod name, namespace/name or UID`, 'Names are lower-case letters, digits, - and . (namespace/name, or a UID).', 'BAD_INPUT');
  }
  const dirs = await listPodLogDirs(access, logsDir);
  const hits = ns !== undefined ? dirs.filter((d) => d.namespace === ns && d.name === name) : dirs.filter((d) => d.uid === name).length ? dirs.filter((d) => d.uid === name) : dirs.filter((d) => d.name === name);
  if (hits.length > 1 && ns === undefined) {
    throw new LogAccessError(`pod name '${name}' is in several namespaces on ${access.where}: ${hits.map((d) => d.namespace).join(', ')}`, `Give namespace/name, e.g. ${hits[0]!.namespace}/${name}.`, 'BAD_INPUT');
  }
  // A pod recreated under the same name leaves its old directory until GC: the newest UID's is not knowable from
  // names alone, so several are an ambiguity too.
  if (hits.length > 1) throw new LogAccessError(`${pod} has log directories for several UIDs: ${hits.map((d) => d.uid).join(', ')}`, 'Give the UID of the one you want.', 'BAD_INPUT');
  const hit = hits[0];
  if (!hit) {
    throw new LogAccessError(
      `no logs for pod ${pod} in ${logsDir} on ${access.where}`,
      'The pod is not on this node, none of its containers has started yet, or the kubelet writes logs elsewhere (--log-dir). `nodescope pods` lists the node\'s pods.',
      'NOT_FOUND',
    );
  }
  return hit;
}

/** The containers that have a log directory (init, regular and ephemeral alike), in name order. */
export async function listContainers(access: LogFileAccess, pod: PodLogDir): Promise<string[]> {
  return ((await access.list(pod.path)) ?? []).filter(isContainerName).sort();
}

/** One instance's files: the live `N.log` and its rotated files, oldest first (their names sort by time). */
export interface ContainerLogFiles {
  container: string;
  restartCount: number;
  current: string;
  rotated: { path: string; gzip: boolean }[];
}

const LIVE = /^(\d+)\.log$/;
const ROTATED = /^(\d+)\.log\.(\d{8}-\d{6})(\.gz)?$/;

/**
 * The files of the current instance (the highest restart count, as the kubelet numbers them), with
 * `previous` of the one before it (`kubectl logs -p`, as crictl finds it: restart count minus one), or of a
 * given `instance` (the flight recorder's capture of one that ended).
 */
export async function containerLogFiles(access: LogFileAccess, pod: PodLogDir, container: string, previous = false, instance?: number): Promise<ContainerLogFiles> {
  if (!isContainerName(container)) throw new LogAccessError(`'${container}' is not a container name`, 'Container names are lower-case letters, digits and -.', 'BAD_INPUT');
  const dir = `${pod.path}/${container}`;
  const names = await access.list(dir);
  const podText = `${pod.namespace}/${pod.name}`;
  if (!names) {
    const known = await listContainers(access, pod);
    throw new LogAccessError(
      `container ${container} of pod ${podText} has no logs on ${access.where}`,
      known.length ? `Its containers with logs: ${known.join(', ')}. A container that has not started yet has none.` : 'No container of this pod has started yet.',
      'NOT_FOUND',
    );
  }
  const counts = names.flatMap((n) => (LIVE.exec(n) ? [Number(LIVE.exec(n)![1])] : [])).sort((a, b) => a - b);
  const latest = counts.at(-1);
  if (latest === undefined) {
    throw new LogAccessError(`container ${container} of pod ${podText} has no log file in ${dir}`, 'It has not started yet, or its logs were removed with the container (container garbage collection).', 'NOT_FOUND');
  }
  if (instance !== undefined && !counts.includes(instance)) {
    throw new LogAccessError(`instance ${instance} of container ${container} (${instance}.log) is not in ${dir}`, 'Container garbage collection removed it, or the runtime numbered it otherwise.', 'NOT_FOUND');
  }
  const restartCount = instance ?? (previous ? latest - 1 : latest);
  if (previous && !counts.includes(restartCount)) {
    throw new LogAccessError(
      latest === 0 ? `previous terminated container ${JSON.stringify(container)} in pod ${JSON.stringify(podText)} not found` : `the previous instance of container ${container} (${restartCount}.log) is gone from ${dir}`,
      latest === 0 ? 'The container has not restarted: leave out --previous.' : 'Container garbage collection removed it; only the current instance is left.',
      'NOT_FOUND',
    );
  }
  const byName = new Set(names);
  const rotated = names
    .flatMap((n) => {
      const m = ROTATED.exec(n);
      if (!m || Number(m[1]) !== restartCount) return [];
      // Mid-compression the plain file and its .gz twin both exist; the plain one is whole.
      if (m[3] && byName.has(n.slice(0, -3))) return [];
      return [{ path: `${dir}/${n}`, gzip: !!m[3], stamp: m[2]! }];
    })
    .sort((a, b) => (a.stamp < b.stamp ? -1 : 1))
    .map(({ path, gzip }) => ({ path, gzip }));
  return { container, restartCount, current: `${dir}/${restartCount}.log`, rotated };
}
