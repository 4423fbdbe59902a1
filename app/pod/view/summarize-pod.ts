import type { ContainerStateView, ContainerView, PodSummary } from '../../contract/pods';
import type { PodObject, PodTree } from '../pod-tree';
import { kubectlColumns } from './kubectl-columns';
import { isStaticPod, ownerOf } from './pod-metadata';
import { listAt, numAt, objAt, optStrAt, strAt, stringMapAt } from './pod-tree-access';

function stateView(state: PodObject): ContainerStateView {
  for (const kind of ['running', 'waiting', 'terminated'] as const) {
    if (state[kind] === undefined) continue;
    const s = objAt(state[kind]);
    const view: ContainerStateView = { kind };
    const reason = optStrAt(s.reason);
    const message = optStrAt(s.message);
    if (reason) view.reason = reason;
    if (message) view.message = message;
    if (s.startedAt !== undefined) view.startedAt = typeof s.startedAt === 'string' ? s.startedAt : null;
    if (s.finishedAt !== undefined) view.finishedAt = typeof s.finishedAt === 'string' ? s.finishedAt : null;
    if (kind === 'terminated') view.exitCode = numAt(s.exitCode);
    if (kind === 'terminated' && numAt(s.signal) !== 0) view.signal = numAt(s.signal);
    return view;
  }
  return { kind: 'unknown' };
}

function portText(v: PodObject[string]): string {
  return typeof v === 'number' || typeof v === 'string' ? String(v) : '?';
}

/** One line per probe: "http GET :8080/healthz, every 10s, timeout 1s, fail after 3". */
export function describeProbe(probe: PodObject): string {
  let how = 'no handler';
  if (probe.httpGet !== undefined) {
    const h = objAt(probe.httpGet);
    how = `${strAt(h.scheme).toLowerCase() || 'http'} GET :${portText(h.port)}${strAt(h.path)}`;
  } else if (probe.tcpSocket !== undefined) how = `tcp :${portText(objAt(probe.tcpSocket).port)}`;
  else if (probe.grpc !== undefined) how = `grpc :${portText(objAt(probe.grpc).port)}`;
  else if (probe.exec !== undefined) {
    const cmd = objAt(probe.exec).command;
    how = `exec ${Array.isArray(cmd) ? cmd.map(String).join(' ') : ''}`.trim();
  }
  const parts = [how];
  if (numAt(probe.initialDelaySeconds)) parts.push(`after ${numAt(probe.initialDelaySeconds)}s`);
  parts.push(`every ${numAt(probe.periodSeconds) || 10}s`);
  parts.push(`timeout ${numAt(probe.timeoutSeconds) || 1}s`);
  parts.push(`fail after ${numAt(probe.failureThreshold) || 3}`);
  return parts.join(', ');
}

function containerView(kind: ContainerView['kind'], spec: PodObject, status: PodObject | undefined): ContainerView {
  const effectiveKind = kind === 'init' && spec.restartPolicy === 'Always' ? 'sidecar' : kind;
  const resources = objAt(spec.resources);
  const view: ContainerView = {
    kind: effectiveKind,
    name: strAt(spec.name),
    image: strAt(spec.image),
    state: status ? stateView(objAt(status.state)) : { kind: 'unknown' },
    ready: status?.ready === true,
    restarts: numAt(status?.restartCount),
    probes: (['liveness', 'readiness', 'startup'] as const)
      .filter((p) => spec[`${p}Probe`] !== undefined)
      .map((p) => ({ kind: p, description: describeProbe(objAt(spec[`${p}Probe`])) })),
    requests: stringMapAt(resources.requests),
    limits: stringMapAt(resources.limits),
    ports: listAt(spec.ports).map(
      (p) => `${optStrAt(p.name) ? `${strAt(p.name)} ` : ''}${numAt(p.containerPort)}/${strAt(p.protocol) || 'TCP'}`,
    ),
  };
  const imageID = optStrAt(status?.imageID);
  if (imageID) view.imageID = imageID;
  if (typeof status?.started === 'boolean') view.started = status.started;
  const last = objAt(status?.lastState);
  if (last.terminated !== undefined) view.lastTermination = stateView({ terminated: last.terminated });
  return view;
}

const VOLUME_DETAIL: Record<string, (v: PodObject) => string> = {
  configMap: (v) => strAt(v.name),
  secret: (v) => strAt(v.secretName),
  persistentVolumeClaim: (v) => strAt(v.claimName) + (v.readOnly === true ? ' (read-only)' : ''),
  hostPath: (v) => strAt(v.path) + (optStrAt(v.type) ? ` (${strAt(v.type)})` : ''),
  emptyDir: (v) => [strAt(v.medium) || 'node disk', optStrAt(v.sizeLimit) ? `limit ${strAt(v.sizeLimit)}` : ''].filter(Boolean).join(', '),
  projected: (v) =>
    listAt(v.sources)
      .map((s) => Object.keys(s)[0] ?? '')
      .join(', '),
  downwardAPI: (v) => `${listAt(v.items).length} items`,
};

function volumeView(volume: PodObject): { name: string; kind: string; detail: string } {
  const kind = Object.keys(volume).find((k) => k !== 'name') ?? 'unknown';
  const detail = VOLUME_DETAIL[kind]?.(objAt(volume[kind])) ?? '';
  return { name: strAt(volume.name), kind, detail };
}

/** The readable summary the pod detail shows next to the JSON. */
export function summarizePod(pod: PodTree): PodSummary {
  const meta = objAt(pod.metadata);
  const spec = objAt(pod.spec);
  const status = objAt(pod.status);
  const owner = ownerOf(meta);
  const byName = (statuses: PodObject[]) => new Map(statuses.map((s) => [strAt(s.name), s]));
  const initStatus = byName(listAt(status.initContainerStatuses));
  const mainStatus = byName(listAt(status.containerStatuses));
  const ephStatus = byName(listAt(status.ephemeralContainerStatuses));
  const annotations = stringMapAt(meta.annotations);
  return {
    namespace: strAt(meta.namespace),
    name: strAt(meta.name),
    uid: strAt(meta.uid),
    phase: strAt(status.phase),
    status: kubectlColumns(pod).status,
    node: strAt(spec.nodeName),
    podIP: strAt(status.podIP),
    hostIP: strAt(status.hostIP),
    qosClass: strAt(status.qosClass),
    serviceAccount: strAt(spec.serviceAccountName) || strAt(spec.serviceAccount),
    restartPolicy: strAt(spec.restartPolicy),
    priorityClassName: strAt(spec.priorityClassName),
    createdAt: typeof meta.creationTimestamp === 'string' ? meta.creationTimestamp : null,
    startedAt: typeof status.startTime === 'string' ? status.startTime : null,
    ownerKind: owner.kind,
    ownerName: owner.name,
    isStatic: isStaticPod(meta),
    labels: stringMapAt(meta.labels),
    annotations,
    conditions: listAt(status.conditions).map((c) => {
      const view: PodSummary['conditions'][number] = { type: strAt(c.type), status: strAt(c.status) };
      if (optStrAt(c.reason)) view.reason = strAt(c.reason);
      if (optStrAt(c.message)) view.message = strAt(c.message);
      if (c.lastTransitionTime !== undefined) view.lastTransitionTime = typeof c.lastTransitionTime === 'string' ? c.lastTransitionTime : null;
      return view;
    }),
    containers: [
      ...listAt(spec.initContainers).map((c) => containerView('init', c, initStatus.get(strAt(c.name)))),
      ...listAt(spec.containers).map((c) => containerView('regular', c, mainStatus.get(strAt(c.name)))),
      ...listAt(spec.ephemeralContainers).map((c) => containerView('ephemeral', c, ephStatus.get(strAt(c.name)))),
    ],
    volumes: listAt(spec.volumes).map(volumeView),
  };
}
