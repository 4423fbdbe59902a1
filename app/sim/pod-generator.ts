// Seeded generator of the pods one node's kubelet knows: the workloads, states and field shapes found
// on real clusters (see ../shared/fixtures/pods), so the UI and the client meet every case. The same
// seed, node name and clock always give the same pods.
import type { PodObject, PodTree, PodValue } from '../pod/pod-tree';
import {
  type AppTemplate,
  type ProbeKind,
  type StaticApp,
  daemonSetApps,
  debugImages,
  deploymentApps,
  environments,
  initApps,
  jobApps,
  namePrefixes,
  namespaces,
  sidecarApps,
  staticApps,
  statefulApps,
  systemNamespace,
  teams,
} from './pod-catalog';
import {
  condition,
  notReadyDetail,
  runningState,
  terminatedState,
  waitingState,
} from './pod-status';
import { podTime, podTimeNanos } from './pod-time';
import { Prng } from './prng';

export interface PodGeneratorOptions {
  seed: number;
  nodeName: string;
}

type WorkloadKind = 'Deployment' | 'DaemonSet' | 'StatefulSet' | 'Job' | 'CronJob' | 'Static' | 'Bare';

/** The situations a pod can be found in; the generator spreads pods over all of them. */
export type PodState =
  | 'running'
  | 'notReady'
  | 'crashLoop'
  | 'creating'
  | 'initializing'
  | 'unschedulable'
  | 'succeeded'
  | 'failed'
  | 'terminating';

interface Workload {
  kind: WorkloadKind;
  app: AppTemplate;
  name: string;
  namespace: string;
  uid: string;
  /** pod-template-hash or controller-revision-hash. */
  hash: string;
  /** Seeds the pod template, so every replica of a workload has the same spec. */
  templateSeed: number;
  nextOrdinal: number;
  component?: string;
  configHash?: string;
}

const DAY = 86_400_000;
const kubeRootCa = { items: [{ key: 'ca.crt', path: 'ca.crt' }], name: 'kube-root-ca.crt' };
const defaultTolerations = [
  { effect: 'NoExecute', key: 'node.kubernetes.io/not-ready', operator: 'Exists', tolerationSeconds: 300 },
  { effect: 'NoExecute', key: 'node.kubernetes.io/unreachable', operator: 'Exists', tolerationSeconds: 300 },
];

export class PodGenerator {
  readonly nodeName: string;
  readonly nodeUid: string;
  readonly hostIP: string;
  private readonly rng: Prng;
  private readonly dualStack: boolean;
  private readonly podSubnet: number;
  /** Workloads that may get more replicas on this node. */
  private readonly deployments: Workload[] = [];
  private readonly statefulSets: Workload[] = [];
  private readonly staticLeft: StaticApp[] = [...staticApps];
  private readonly daemonSetsLeft: { app: AppTemplate; namespace: string }[];
  private readonly usedNames = new Set<string>();
  private ipCounter = 0;
  // The first pods show every rare situation once, so even a small node covers them all.
  private readonly showcase: PodState[] = ['crashLoop', 'creating', 'initializing', 'unschedulable', 'notReady', 'terminating'];
  private readonly jobShowcase: PodState[] = ['succeeded', 'failed'];
  private readonly kindShowcase: WorkloadKind[] = ['Bare', 'DaemonSet', 'StatefulSet', 'Job', 'CronJob'];
  private debugShown = false;

  constructor(options: PodGeneratorOptions) {
    this.rng = new Prng(options.seed);
    this.nodeName = options.nodeName;
    this.nodeUid = this.rng.uuid();
    this.hostIP = `192.168.${this.rng.int(0, 255)}.${this.rng.int(2, 254)}`;
    this.dualStack = this.rng.chance(0.3);
    this.podSubnet = this.rng.int(0, 255);
    // A DaemonSet runs at most one pod per node: one per (app, namespace).
    this.daemonSetsLeft = [systemNamespace, 'monitoring', 'platform'].flatMap((namespace) =>
      daemonSetApps.map((app) => ({ app, namespace })),
    );
  }

  /** A pod as found on a node that has been running for a while: any age, any state. */
  existing(nowMs: number): PodTree {
    const workload = this.chooseWorkload(nowMs);
    const state = this.chooseState(workload);
    const createdMs = workload.kind === 'Static' ? nowMs - this.rng.int(DAY, 30 * DAY) : nowMs - this.age();
    return this.build(workload, state, createdMs, nowMs);
  }

  /** A pod the scheduler has just bound to this node: Pending, containers being created. */
  fresh(nowMs: number): PodTree {
    const workload = this.chooseWorkload(nowMs);
    return this.build(workload, 'creating', nowMs, nowMs);
  }

  /** Ages spread like a real node's: many recent pods, a long tail of old ones. */
  private age(): number {
    const r = this.rng.next();
    return Math.floor(60_000 + r * r * r * 90 * DAY);
  }

  private chooseWorkload(nowMs: number): Workload {
    const nextStatic = this.staticLeft.shift();
    if (nextStatic) return this.newWorkload('Static', nextStatic, systemNamespace, nowMs, nextStatic.component);
    const kinds: Record<WorkloadKind, number> = {
      Deployment: 50,
      DaemonSet: this.daemonSetsLeft.length > 0 ? 4 : 0,
      StatefulSet: 12,
      Job: 8,
      CronJob: 10,
      Static: 0,
      Bare: 3,
    };
    const kind = this.kindShowcase.shift() ?? this.rng.weighted(kinds);
    if (kind === 'DaemonSet') {
      const ds = this.daemonSetsLeft.splice(this.rng.int(0, this.daemonSetsLeft.length - 1), 1)[0]!;
      return this.newWorkload('DaemonSet', ds.app, ds.namespace, nowMs);
    }
    if (kind === 'Deployment' || kind === 'StatefulSet') {
      const same = kind === 'Deployment' ? this.deployments : this.statefulSets;
      if (same.length > 0 && this.rng.chance(0.6)) return this.rng.pick(same);
      const app = this.rng.pick(kind === 'Deployment' ? deploymentApps : statefulApps);
      return this.newWorkload(kind, app, this.rng.pick(namespaces), nowMs);
    }
    if (kind === 'Job' || kind === 'CronJob') return this.newWorkload(kind, this.rng.pick(jobApps), this.rng.pick(namespaces), nowMs);
    return this.newWorkload('Bare', this.rng.pick(deploymentApps), this.rng.pick(namespaces), nowMs);
  }

  private newWorkload(kind: WorkloadKind, app: AppTemplate, namespace: string, nowMs: number, component?: string): Workload {
    const rng = this.rng;
    const base = kind === 'Static' || kind === 'DaemonSet' ? app.name : `${rng.pick(namePrefixes)}-${app.name}`;
    const name =
      kind === 'CronJob'
        ? `${base}-${Math.floor((nowMs - rng.int(0, 3 * DAY)) / 60_000)}`
        : kind === 'DaemonSet' && namespace !== systemNamespace
          ? `${base}-${namespace}`
          : base;
    const workload: Workload = {
      kind,
      app,
      name,
      namespace,
      uid: rng.uuid(),
      hash: kind === 'StatefulSet' ? `${name}-${rng.hex(10)}` : rng.nameSuffix(10),
      templateSeed: rng.int(0, 0x7fffffff),
      nextOrdinal: 0,
      configHash: rng.chance(0.5) ? rng.hex(64) : undefined,
    };
    if (component !== undefined) workload.component = component;
    if (kind === 'Deployment') this.deployments.push(workload);
    if (kind === 'StatefulSet') this.statefulSets.push(workload);
    return workload;
  }

  private chooseState(w: Workload): PodState {
    const rng = this.rng;
    if (w.kind === 'Static') return rng.chance(0.1) ? 'notReady' : 'running';
    if (w.kind === 'Job' || w.kind === 'CronJob') {
      return this.jobShowcase.shift() ?? rng.weighted({ succeeded: 50, failed: 20, running: 20, creating: 5, terminating: 5 });
    }
    // A real kubelet never holds an unschedulable pod (nothing bound it to the node); a few are made
    // anyway so every view meets a Pending pod without nodeName, as seen in exports from the API server.
    return this.showcase.shift() ?? rng.weighted({
      running: 68,
      notReady: 6,
      crashLoop: 7,
      creating: 4,
      initializing: 5,
      unschedulable: 2,
      terminating: 8,
    });
  }

  private podName(w: Workload): string {
    for (;;) {
      let name: string;
      switch (w.kind) {
        case 'Static':
          name = `${w.name}-${this.nodeName}`;
          break;
        case 'StatefulSet':
          name = `${w.name}-${w.nextOrdinal++}`;
          break;
        case 'Deployment':
          name = `${w.name}-${w.hash}-${this.rng.nameSuffix(5)}`;
          break;
        case 'Bare':
          name = `${w.name}-${this.rng.nameSuffix(4)}`;
          break;
        default:
          name = `${w.name}-${this.rng.nameSuffix(5)}`;
      }
      const key = `${w.namespace}/${name}`;
      if (!this.usedNames.has(key)) {
        this.usedNames.add(key);
        return name;
      }
    }
  }

  /** The next free pod IPs (one, or two on a dual-stack node); the node's own IP for hostNetwork pods. */
  allocatePodIPs(hostNetwork: boolean): string[] {
    if (hostNetwork) return [this.hostIP];
    const i = this.ipCounter++;
    const v4 = `10.${this.podSubnet}.${Math.floor(i / 250) % 256}.${(i % 250) + 2}`;
    return this.dualStack ? [v4, `fd00:10:${this.podSubnet.toString(16)}::${(i + 2).toString(16)}`] : [v4];
  }

  private build(w: Workload, state: PodState, createdMs: number, nowMs: number): PodTree {
    const rng = this.rng;
    const name = this.podName(w);
    const uid = rng.uuid();
    const tpl = new Prng(w.templateSeed);
    const hostNetwork = w.kind === 'Static' || (w.kind === 'DaemonSet' && w.app.name !== 'fluent-bit');
    const init = w.kind === 'Static' || w.kind === 'Bare' ? [] : tpl.chance(0.3) ? tpl.chance(0.5) ? [initApps[0]!, initApps[1]!] : [tpl.pick(initApps)] : [];
    // A pod can only be initializing if it has an init container to wait for.
    if (state === 'initializing' && init.length === 0) init.push(tpl.pick(initApps));
    const sidecar = (w.kind === 'Deployment' || w.kind === 'StatefulSet') && tpl.chance(0.25) ? tpl.pick(sidecarApps) : undefined;
    const extra = w.kind === 'Deployment' && tpl.chance(0.15) ? tpl.pick(sidecarApps) : undefined;
    const apiAccess = w.kind === 'Static' ? undefined : `kube-api-access-${rng.nameSuffix(5)}`;

    const metadata = this.metadata(w, name, uid, createdMs, tpl);
    const volumes = this.volumes(w, name, tpl, apiAccess);
    const mainMounts = this.mounts(volumes, w);
    const containers = [this.container(w.app, tpl, w, mainMounts, true)];
    if (extra) containers.push(this.container(extra, tpl, w, mainMounts.slice(-1), false));
    const initContainers = init.map((app) => this.container(app, tpl, w, mainMounts.slice(-1), false));
    if (sidecar) {
      const sc = this.container(sidecar, tpl, w, mainMounts.slice(-1), false);
      sc.restartPolicy = 'Always';
      initContainers.push(sc);
    }
    const spec = this.spec(w, name, tpl, containers, initContainers, volumes, hostNetwork, state === 'unschedulable');
    const pod: PodTree = { metadata, spec, status: {} };
    const debug = state === 'running' && w.kind !== 'Static' && (!this.debugShown || rng.chance(0.03));
    if (debug) {
      this.debugShown = true;
      spec.ephemeralContainers = [
        {
          image: rng.pick(debugImages),
          imagePullPolicy: 'IfNotPresent',
          name: `debugger-${rng.nameSuffix(5)}`,
          resources: {},
          stdin: true,
          targetContainerName: w.app.name,
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          tty: true,
        },
      ];
    }
    pod.status = this.status(pod, w, state, createdMs, nowMs, hostNetwork);
    if (state === 'terminating') {
      const grace = spec.terminationGracePeriodSeconds as number;
      metadata.deletionGracePeriodSeconds = grace;
      metadata.deletionTimestamp = podTime(nowMs + rng.int(1, Math.max(1, grace)) * 1000);
    }
    if (w.kind !== 'Static' && rng.chance(0.3)) metadata.managedFields = this.managedFields(pod, createdMs, nowMs);
    return pod;
  }

  private metadata(w: Workload, name: string, uid: string, createdMs: number, tpl: Prng): PodObject {
    const rng = this.rng;
    const labels: Record<string, string> = {};
    const annotations: Record<string, string> = {};
    const seenMs = createdMs + rng.int(0, 900);
    annotations['kubernetes.io/config.seen'] = podTimeNanos(seenMs, rng.int(0, 999_999));
    annotations['kubernetes.io/config.source'] = w.kind === 'Static' ? 'file' : 'api';
    const meta: PodObject = { creationTimestamp: podTime(createdMs), generation: 1, labels, annotations, name, namespace: w.namespace };
    const controllerRef = (apiVersion: string, kind: string, ownerName: string, ownerUid: string): PodObject => ({
      apiVersion,
      blockOwnerDeletion: true,
      controller: true,
      kind,
      name: ownerName,
      uid: ownerUid,
    });
    switch (w.kind) {
      case 'Static': {
        const configHash = tpl.hex(32);
        annotations['kubernetes.io/config.hash'] = configHash;
        annotations['kubernetes.io/config.mirror'] = configHash;
        labels.component = w.component ?? w.app.name;
        labels.tier = 'control-plane';
        if (w.app.name === 'etcd') annotations['kubeadm.kubernetes.io/etcd.advertise-client-urls'] = `https://${this.hostIP}:2379`;
        meta.ownerReferences = [{ apiVersion: 'v1', controller: true, kind: 'Node', name: this.nodeName, uid: this.nodeUid }];
        break;
      }
      case 'Deployment':
        meta.generateName = `${w.name}-${w.hash}-`;
        labels.app = w.name;
        labels['pod-template-hash'] = w.hash;
        meta.ownerReferences = [controllerRef('apps/v1', 'ReplicaSet', `${w.name}-${w.hash}`, w.uid)];
        break;
      case 'DaemonSet':
        meta.generateName = `${w.name}-`;
        labels['k8s-app'] = w.name;
        labels['controller-revision-hash'] = w.hash;
        labels['pod-template-generation'] = String(tpl.int(1, 9));
        meta.ownerReferences = [controllerRef('apps/v1', 'DaemonSet', w.name, w.uid)];
        break;
      case 'StatefulSet': {
        meta.generateName = `${w.name}-`;
        labels.app = w.name;
        labels['apps.kubernetes.io/pod-index'] = name.slice(w.name.length + 1);
        labels['controller-revision-hash'] = w.hash;
        labels['statefulset.kubernetes.io/pod-name'] = name;
        meta.ownerReferences = [controllerRef('apps/v1', 'StatefulSet', w.name, w.uid)];
        break;
      }
      case 'Job':
      case 'CronJob':
        meta.generateName = `${w.name}-`;
        labels['batch.kubernetes.io/controller-uid'] = w.uid;
        labels['batch.kubernetes.io/job-name'] = w.name;
        labels['controller-uid'] = w.uid;
        labels['job-name'] = w.name;
        meta.finalizers = ['batch.kubernetes.io/job-tracking'];
        meta.ownerReferences = [controllerRef('batch/v1', 'Job', w.name, w.uid)];
        break;
      case 'Bare':
        labels.run = w.app.name;
        annotations['kubectl.kubernetes.io/last-applied-configuration'] =
          JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { annotations: {}, labels: { run: w.app.name }, name, namespace: w.namespace }, spec: { containers: [{ image: w.app.image, name: w.app.name }] } }) + '\n';
        break;
    }
    if (w.kind !== 'Static') {
      labels['app.kubernetes.io/name'] = w.app.name;
      labels['app.kubernetes.io/instance'] = w.name;
      if (tpl.chance(0.6)) {
        labels['app.kubernetes.io/managed-by'] = tpl.pick(['Helm', 'kustomize', 'argocd']);
        labels['app.kubernetes.io/part-of'] = w.name.split('-')[0]!;
        labels['app.kubernetes.io/version'] = w.app.image.split(':').pop()!;
      }
      if (tpl.chance(0.5)) {
        labels.team = tpl.pick(teams);
        labels.environment = tpl.pick(environments);
      }
      if (w.app.ports.some((p) => p.name === 'metrics') && tpl.chance(0.7)) {
        annotations['prometheus.io/scrape'] = 'true';
        annotations['prometheus.io/port'] = String(w.app.ports.find((p) => p.name === 'metrics')!.containerPort);
      }
      if (w.configHash !== undefined) annotations['checksum/config'] = w.configHash;
      if (tpl.chance(0.2)) annotations['kubectl.kubernetes.io/restartedAt'] = podTime(createdMs - 1000).replace('Z', '+00:00');
    }
    meta.resourceVersion = String(this.rng.int(1000, 99_999_999));
    meta.uid = uid;
    return meta;
  }

  private volumes(w: Workload, podName: string, tpl: Prng, apiAccess: string | undefined): PodObject[] {
    const volumes: PodObject[] = [];
    if (w.kind === 'Static') {
      const dirs: [string, string, string][] =
        w.app.name === 'etcd'
          ? [['etcd-certs', '/etc/kubernetes/pki/etcd', 'DirectoryOrCreate'], ['etcd-data', '/var/lib/etcd', 'DirectoryOrCreate']]
          : [['k8s-certs', '/etc/kubernetes/pki', 'DirectoryOrCreate'], ['kubeconfig', `/etc/kubernetes/${w.app.name.replace('kube-', '')}.conf`, 'FileOrCreate']];
      for (const [name, path, type] of dirs) volumes.push({ hostPath: { path, type }, name });
      return volumes;
    }
    if (w.kind === 'DaemonSet') {
      volumes.push({ hostPath: { path: '/var/log', type: '' }, name: 'varlog' });
      volumes.push({ hostPath: { path: '/run/xtables.lock', type: 'FileOrCreate' }, name: 'xtables-lock' });
      volumes.push({ hostPath: { path: '/lib/modules', type: '' }, name: 'lib-modules' });
    }
    if (tpl.chance(0.6)) {
      volumes.push({ configMap: { defaultMode: 420, name: `${w.name}-config` }, name: 'config' });
    }
    if (tpl.chance(0.3)) {
      volumes.push({ name: 'tls', secret: { defaultMode: 420, secretName: `${w.name}-tls` } });
    }
    if (tpl.chance(0.4)) {
      volumes.push({ emptyDir: tpl.chance(0.5) ? {} : { medium: 'Memory', sizeLimit: '64Mi' }, name: 'tmp' });
    }
    if (w.kind === 'StatefulSet') {
      volumes.push({ name: 'data', persistentVolumeClaim: { claimName: `data-${podName}` } });
    }
    if (tpl.chance(0.1)) {
      volumes.push({
        downwardAPI: { defaultMode: 420, items: [{ fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.labels' }, path: 'labels' }] },
        name: 'podinfo',
      });
    }
    if (apiAccess !== undefined) {
      volumes.push({
        name: apiAccess,
        projected: {
          defaultMode: 420,
          sources: [
            { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
            { configMap: kubeRootCa },
            { downwardAPI: { items: [{ fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' }, path: 'namespace' }] } },
          ],
        },
      });
    }
    return volumes;
  }

  /** Mount points for the main container; the service-account token, if any, comes last. */
  private mounts(volumes: PodObject[], w: Workload): PodObject[] {
    const paths: Record<string, string> = {
      config: '/etc/app',
      tls: '/etc/tls',
      tmp: '/tmp',
      data: `/var/lib/${w.app.name}`,
      podinfo: '/etc/podinfo',
      varlog: '/var/log',
      'xtables-lock': '/run/xtables.lock',
      'lib-modules': '/lib/modules',
    };
    return volumes.map((v) => {
      const name = v.name as string;
      if (name.startsWith('kube-api-access-')) {
        return { mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', name, readOnly: true };
      }
      const hostPath = v.hostPath as PodObject | undefined;
      const mountPath = paths[name] ?? (hostPath?.path as string);
      const readOnly = name === 'config' || name === 'tls' || name === 'lib-modules' || name.endsWith('certs');
      return readOnly ? { mountPath, name, readOnly: true } : { mountPath, name };
    });
  }

  private container(app: AppTemplate, tpl: Prng, w: Workload, volumeMounts: PodObject[], main: boolean): PodObject {
    const c: PodObject = { image: app.image, imagePullPolicy: tpl.chance(0.8) ? 'IfNotPresent' : 'Always', name: app.name };
    if (app.command) c.command = [...app.command];
    if (app.args) c.args = [...app.args];
    if (main && w.kind !== 'Static') c.env = this.env(app, w, tpl);
    if (main && tpl.chance(0.15)) c.envFrom = [{ configMapRef: { name: `${w.name}-env` } }];
    if (app.ports.length > 0) {
      c.ports = app.ports.map((p) => ({ containerPort: p.containerPort, name: p.name, protocol: p.protocol ?? 'TCP' }));
    }
    if (app.probes.length > 0) {
      c.livenessProbe = this.probe(tpl.pick(app.probes), app, tpl, w, 'liveness');
      if (w.kind !== 'Static') c.readinessProbe = this.probe(tpl.pick(app.probes), app, tpl, w, 'readiness');
      if (w.kind === 'Static' || tpl.chance(0.2)) c.startupProbe = this.probe(tpl.pick(app.probes), app, tpl, w, 'startup');
    }
    c.resources = resources(app, tpl);
    c.securityContext = this.containerSecurity(w, tpl);
    c.terminationMessagePath = '/dev/termination-log';
    c.terminationMessagePolicy = tpl.chance(0.8) ? 'File' : 'FallbackToLogsOnError';
    if (volumeMounts.length > 0) c.volumeMounts = volumeMounts.map((m) => ({ ...m }));
    return c;
  }

  private env(app: AppTemplate, w: Workload, tpl: Prng): PodObject[] {
    const field = (name: string, fieldPath: string): PodObject => ({ name, valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath } } });
    const env: PodObject[] = [field('POD_NAME', 'metadata.name'), field('POD_NAMESPACE', 'metadata.namespace')];
    if (w.kind === 'DaemonSet') env.push(field('NODE_NAME', 'spec.nodeName'));
    if (tpl.chance(0.5)) env.push(field('POD_IP', 'status.podIP'));
    env.push({ name: 'LOG_LEVEL', value: tpl.pick(['info', 'debug', 'warn']) });
    if (tpl.chance(0.4)) env.push({ name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { key: 'password', name: `${w.name}-db` } } });
    if (tpl.chance(0.3)) env.push({ name: 'FEATURE_FLAGS', valueFrom: { configMapKeyRef: { key: 'flags', name: `${w.name}-flags`, optional: true } } });
    if (app.memoryMi > 0 && tpl.chance(0.3)) {
      env.push({ name: 'GOMEMLIMIT', valueFrom: { resourceFieldRef: { containerName: app.name, divisor: '1', resource: 'limits.memory' } } });
    }
    return env;
  }

  private probe(kind: ProbeKind, app: AppTemplate, tpl: Prng, w: Workload, purpose: string): PodObject {
    const port = app.ports[0];
    // IntOrString ports: named ports and numbers both occur on real pods.
    const portValue: PodValue = port && tpl.chance(0.5) ? port.name : (port?.containerPort ?? 8080);
    const probe: PodObject = { failureThreshold: purpose === 'startup' ? 24 : 3 };
    switch (kind) {
      case 'httpGet': {
        const get: PodObject = { path: purpose === 'readiness' ? '/ready' : '/healthz', port: portValue, scheme: 'HTTP' };
        if (w.kind === 'Static') {
          get.host = '127.0.0.1';
          get.port = w.app.name === 'etcd' ? 2381 : w.app.name === 'kube-apiserver' ? 6443 : 10259;
          get.scheme = w.app.name === 'etcd' ? 'HTTP' : 'HTTPS';
          get.path = w.app.name === 'etcd' ? '/health?exclude=NOSPACE&serializable=true' : purpose === 'readiness' ? '/readyz' : '/livez';
        }
        probe.httpGet = get;
        break;
      }
      case 'exec':
        probe.exec = { command: app.name === 'postgres' ? ['pg_isready', '-U', 'postgres'] : app.name === 'redis' ? ['redis-cli', 'ping'] : ['/bin/sh', '-c', 'test -f /tmp/healthy'] };
        break;
      case 'tcpSocket':
        probe.tcpSocket = { port: portValue };
        break;
      case 'grpc':
        probe.grpc = tpl.chance(0.5) ? { port: port?.containerPort ?? 50051, service: purpose } : { port: port?.containerPort ?? 50051 };
        break;
    }
    if (purpose === 'liveness' && tpl.chance(0.5)) probe.initialDelaySeconds = tpl.pick([5, 10, 15, 30, 60]);
    probe.periodSeconds = tpl.pick([5, 10, 10, 20]);
    probe.successThreshold = 1;
    probe.timeoutSeconds = tpl.pick([1, 1, 3, 5, 15]);
    return probe;
  }

  private containerSecurity(w: Workload, tpl: Prng): PodObject {
    if (w.kind === 'DaemonSet') {
      return tpl.chance(0.5) ? { privileged: true } : { capabilities: { add: ['NET_RAW', 'NET_ADMIN'] }, privileged: false };
    }
    if (w.kind === 'Static' || tpl.chance(0.3)) return {};
    return {
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
      readOnlyRootFilesystem: tpl.chance(0.6),
      runAsNonRoot: true,
      seccompProfile: { type: 'RuntimeDefault' },
    };
  }

  private spec(
    w: Workload,
    podName: string,
    tpl: Prng,
    containers: PodObject[],
    initContainers: PodObject[],
    volumes: PodObject[],
    hostNetwork: boolean,
    unscheduled: boolean,
  ): PodObject {
    const spec: PodObject = { containers };
    if (initContainers.length > 0) spec.initContainers = initContainers;
    const job = w.kind === 'Job' || w.kind === 'CronJob';
    spec.dnsPolicy = hostNetwork ? 'ClusterFirstWithHostNet' : w.app.name === 'coredns' ? 'Default' : 'ClusterFirst';
    spec.enableServiceLinks = true;
    if (hostNetwork) spec.hostNetwork = true;
    if (!unscheduled) spec.nodeName = this.nodeName;
    spec.preemptionPolicy = 'PreemptLowerPriority';
    if (w.kind === 'Static' || w.kind === 'DaemonSet') {
      spec.priority = w.kind === 'Static' || w.namespace === systemNamespace ? 2000001000 : 1000000;
      spec.priorityClassName = w.kind === 'Static' || w.namespace === systemNamespace ? 'system-node-critical' : 'node-agents';
    } else {
      spec.priority = 0;
    }
    spec.restartPolicy = job ? tpl.pick(['Never', 'OnFailure']) : 'Always';
    spec.schedulerName = 'default-scheduler';
    spec.securityContext = w.kind === 'Static'
      ? { seccompProfile: { type: 'RuntimeDefault' } }
      : tpl.chance(0.5)
        ? {}
        : { fsGroup: 2000, runAsGroup: 3000, runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' } };
    if (w.kind !== 'Static') {
      const sa = tpl.chance(0.5) ? w.name : 'default';
      spec.serviceAccount = sa;
      spec.serviceAccountName = sa;
    }
    spec.terminationGracePeriodSeconds = w.kind === 'StatefulSet' ? tpl.pick([30, 60, 120]) : job ? tpl.pick([0, 30]) : 30;
    if (w.kind === 'StatefulSet') {
      spec.hostname = podName;
      spec.subdomain = w.name.replace(`-${w.app.name}`, '') + '-headless';
    }
    if (w.kind === 'Static') {
      spec.tolerations = [{ effect: 'NoExecute', operator: 'Exists' }];
    } else if (w.kind === 'DaemonSet') {
      spec.affinity = {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [this.nodeName] }] }],
          },
        },
      };
      spec.tolerations = [
        { operator: 'Exists' },
        ...defaultTolerations,
        { effect: 'NoSchedule', key: 'node.kubernetes.io/disk-pressure', operator: 'Exists' },
        { effect: 'NoSchedule', key: 'node.kubernetes.io/memory-pressure', operator: 'Exists' },
      ];
    } else {
      spec.tolerations = tpl.chance(0.2)
        ? [{ effect: 'NoSchedule', key: 'dedicated', operator: 'Equal', value: 'batch' }, ...defaultTolerations]
        : defaultTolerations.map((t) => ({ ...t }));
      if (tpl.chance(0.3)) {
        spec.affinity = {
          podAntiAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [
              {
                podAffinityTerm: {
                  labelSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: [w.name] }] },
                  topologyKey: 'kubernetes.io/hostname',
                },
                weight: 100,
              },
            ],
          },
        };
      }
      if (unscheduled || tpl.chance(0.2)) spec.nodeSelector = { 'kubernetes.io/os': 'linux', ...(unscheduled ? { 'node.kubernetes.io/instance-type': 'gpu-large' } : {}) };
    }
    if (volumes.length > 0) spec.volumes = volumes;
    return spec;
  }

  private status(pod: PodTree, w: Workload, state: PodState, createdMs: number, nowMs: number, hostNetwork: boolean): PodObject {
    const rng = this.rng;
    const spec = pod.spec as PodObject;
    const containers = spec.containers as PodObject[];
    const initContainers = (spec.initContainers as PodObject[] | undefined) ?? [];
    const qosClass = qos([...containers, ...initContainers]);
    if (state === 'unschedulable') {
      return {
        conditions: [
          condition('PodScheduled', false, createdMs, {
            reason: 'Unschedulable',
            message: '0/12 nodes are available: 12 node(s) didn\'t match Pod\'s node affinity/selector. preemption: 0/12 nodes are available: 12 Preemption is not helpful for scheduling.',
          }),
        ],
        phase: 'Pending',
        qosClass,
      };
    }
    const span = Math.max(0, nowMs - createdMs);
    const scheduledMs = createdMs;
    const sandboxMs = createdMs + Math.min(span, rng.int(300, 3000));
    const initDoneMs = sandboxMs + Math.min(Math.max(0, nowMs - sandboxMs), initContainers.length > 0 ? rng.int(2000, 20_000) : 0);
    const startedMs = initDoneMs + Math.min(Math.max(0, nowMs - initDoneMs), rng.int(500, 30_000));
    const readyMs = startedMs + Math.min(Math.max(0, nowMs - startedMs), rng.int(0, 20_000));
    const ips = this.allocatePodIPs(hostNetwork);
    const containerID = () => `containerd://${rng.hex(64)}`;
    const imageID = (image: string) => (rng.chance(0.5) ? `sha256:${rng.hex(64)}` : `${image.split(':')[0]}@sha256:${rng.hex(64)}`);
    const names = containers.map((c) => c.name as string);

    const base = (c: PodObject): PodObject => ({ image: c.image as string, name: c.name as string });
    const running = (c: PodObject, ready: boolean, since: number, restartCount = 0): PodObject => ({
      ...base(c),
      containerID: containerID(),
      imageID: imageID(c.image as string),
      lastState: {},
      ready,
      restartCount,
      started: true,
      state: runningState(since),
    });
    const waiting = (c: PodObject, reason: string): PodObject => ({
      ...base(c),
      imageID: '',
      lastState: {},
      ready: false,
      restartCount: 0,
      started: false,
      state: waitingState(reason),
    });
    const terminated = (c: PodObject, exitCode: number, reason: string, from: number, to: number): PodObject => {
      const id = containerID();
      return {
        ...base(c),
        containerID: id,
        imageID: imageID(c.image as string),
        lastState: {},
        ready: false,
        restartCount: 0,
        started: false,
        state: terminatedState({ containerID: id, exitCode, reason, startedMs: from, finishedMs: to }),
      };
    };
    const initDone = (): PodObject[] =>
      initContainers.map((c) =>
        c.restartPolicy === 'Always' ? running(c, true, sandboxMs) : terminated(c, 0, 'Completed', sandboxMs, initDoneMs),
      );

    let phase = 'Running';
    let initialized = true;
    let containersReady = true;
    let unready: string[] = [];
    let readyReason: string | undefined;
    let containerStatuses: PodObject[];
    let initStatuses: PodObject[] = initDone();

    switch (state) {
      case 'running':
      case 'terminating':
        containerStatuses = containers.map((c) => running(c, true, startedMs, rng.chance(0.1) ? rng.int(1, 4) : 0));
        break;
      case 'notReady': {
        const bad = rng.pick(names);
        containerStatuses = containers.map((c) => running(c, c.name !== bad, startedMs));
        containersReady = false;
        unready = [bad];
        break;
      }
      case 'crashLoop': {
        const bad = rng.pick(names);
        containerStatuses = containers.map((c) => {
          if (c.name !== bad) return running(c, true, startedMs);
          const finished = nowMs - rng.int(5_000, 300_000);
          const restarts = rng.int(3, 250);
          const oom = rng.chance(0.2);
          const status = running(c, false, startedMs, restarts);
          status.lastState = terminatedState({
            containerID: status.containerID as string,
            exitCode: oom ? 137 : rng.pick([1, 2, 127, 255]),
            reason: oom ? 'OOMKilled' : 'Error',
            startedMs: finished - rng.int(1_000, 60_000),
            finishedMs: finished,
          });
          status.started = false;
          status.state = waitingState(
            'CrashLoopBackOff',
            `back-off 5m0s restarting failed container=${bad} pod=${(pod.metadata as PodObject).name}_${w.namespace}(${(pod.metadata as PodObject).uid})`,
          );
          return status;
        });
        containersReady = false;
        unready = [bad];
        break;
      }
      case 'creating':
        phase = 'Pending';
        containerStatuses = containers.map((c) => waiting(c, 'ContainerCreating'));
        initStatuses = initContainers.map((c) => waiting(c, 'PodInitializing'));
        if (initContainers.length > 0) initialized = false;
        containersReady = false;
        unready = names;
        break;
      case 'initializing': {
        phase = 'Pending';
        initialized = false;
        containersReady = false;
        unready = names;
        const current = rng.int(0, initContainers.length - 1);
        initStatuses = initContainers.map((c, i) =>
          i < current
            ? (c.restartPolicy === 'Always' ? running(c, true, sandboxMs) : terminated(c, 0, 'Completed', sandboxMs, sandboxMs + 1000))
            : i === current
              ? running(c, false, sandboxMs + 1000)
              : waiting(c, 'PodInitializing'),
        );
        containerStatuses = containers.map((c) => waiting(c, 'PodInitializing'));
        break;
      }
      case 'succeeded':
      case 'failed': {
        const ok = state === 'succeeded';
        phase = ok ? 'Succeeded' : 'Failed';
        containersReady = false;
        readyReason = ok ? 'PodCompleted' : 'PodFailed';
        const finishedMs = Math.min(nowMs, startedMs + rng.int(2_000, 600_000));
        containerStatuses = containers.map((c) => terminated(c, ok ? 0 : rng.pick([1, 2, 3]), ok ? 'Completed' : 'Error', startedMs, finishedMs));
        break;
      }
    }

    const readyToStart = phase !== 'Pending' || state === 'initializing' || span > 3000;
    const notReady = readyReason !== undefined ? { reason: readyReason } : notReadyDetail(unready);
    const conditions: PodObject[] = [
      condition('PodReadyToStartContainers', readyToStart && phase !== 'Succeeded' && phase !== 'Failed', sandboxMs),
      condition(
        'Initialized',
        initialized,
        initialized ? initDoneMs : createdMs,
        initialized ? (readyReason === 'PodCompleted' ? { reason: 'PodCompleted' } : {}) : {
          reason: 'ContainersNotInitialized',
          message: `containers with incomplete status: [${initContainers.filter((c) => c.restartPolicy !== 'Always').map((c) => c.name).join(' ')}]`,
        },
      ),
      condition('Ready', containersReady, containersReady ? readyMs : startedMs, containersReady ? {} : notReady),
      condition('ContainersReady', containersReady, containersReady ? readyMs : startedMs, containersReady ? {} : notReady),
      condition('PodScheduled', true, scheduledMs),
    ];
    const status: PodObject = { conditions, containerStatuses, hostIP: this.hostIP, hostIPs: [{ ip: this.hostIP }] };
    if (spec.initContainers) status.initContainerStatuses = initStatuses;
    if (spec.ephemeralContainers) {
      status.ephemeralContainerStatuses = (spec.ephemeralContainers as PodObject[]).map((c) =>
        rng.chance(0.5)
          ? running(c, false, nowMs - rng.int(1_000, 600_000))
          : terminated(c, 0, 'Completed', nowMs - 700_000, nowMs - rng.int(1_000, 600_000)),
      );
    }
    status.phase = phase;
    if (phase !== 'Pending' || state === 'initializing') {
      status.podIP = ips[0]!;
      status.podIPs = ips.map((ip) => ({ ip }));
    }
    status.qosClass = qosClass;
    status.startTime = podTime(createdMs);
    return status;
  }

  /** Server-side-apply bookkeeping, as `kubectl get -o json --show-managed-fields` shows it. */
  private managedFields(pod: PodTree, createdMs: number, nowMs: number): PodValue[] {
    const meta = pod.metadata as PodObject;
    const spec = pod.spec as PodObject;
    const keys = (o: PodValue | undefined): PodObject =>
      Object.fromEntries([['.', {}], ...Object.keys((o as PodObject | undefined) ?? {}).map((k) => [`f:${k}`, {}])]);
    const byName = (items: PodValue | undefined): PodObject =>
      Object.fromEntries([['.', {}], ...((items as PodObject[] | undefined) ?? []).map((c) => [`k:{"name":"${c.name}"}`, { '.': {}, 'f:image': {}, 'f:name': {} }])]);
    const metaFields: PodObject = { 'f:labels': keys(meta.labels) };
    if (meta.generateName !== undefined) metaFields['f:generateName'] = {};
    const owners = meta.ownerReferences as PodObject[] | undefined;
    if (owners) metaFields['f:ownerReferences'] = Object.fromEntries([['.', {}], ...owners.map((o) => [`k:{"uid":"${o.uid}"}`, {}])]);
    const specFields: PodObject = { 'f:containers': byName(spec.containers), 'f:restartPolicy': {}, 'f:volumes': byName(spec.volumes) };
    const status = pod.status as PodObject;
    return [
      {
        apiVersion: 'v1',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:metadata': metaFields, 'f:spec': specFields },
        manager: meta.ownerReferences ? 'kube-controller-manager' : 'kubectl-client-side-apply',
        operation: 'Update',
        time: podTime(createdMs),
      },
      {
        apiVersion: 'v1',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:status': { 'f:conditions': {}, 'f:phase': {}, ...(status.podIP !== undefined ? { 'f:podIP': {}, 'f:podIPs': {} } : {}) } },
        manager: 'kubelet',
        operation: 'Update',
        subresource: 'status',
        time: podTime(Math.max(createdMs, nowMs - 60_000)),
      },
    ];
  }
}

function quantityCpu(milli: number): string {
  return milli % 1000 === 0 ? String(milli / 1000) : `${milli}m`;
}

function quantityMemory(mi: number): string {
  return mi % 1024 === 0 ? `${mi / 1024}Gi` : `${mi}Mi`;
}

/** BestEffort, Burstable (requests below limits or requests only) or Guaranteed, by the template. */
function resources(app: AppTemplate, tpl: Prng): PodObject {
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

function qos(containers: PodObject[]): string {
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

/** `count` pods for one node as found at `nowMs`, deterministic for the seed. */
export function generatePods(count: number, options: PodGeneratorOptions & { nowMs: number }): PodTree[] {
  const generator = new PodGenerator(options);
  const pods: PodTree[] = [];
  for (let i = 0; i < count; i++) pods.push(generator.existing(options.nowMs));
  return pods;
}
