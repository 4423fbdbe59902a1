// Seeded generator of the pods one node's kubelet knows: the workloads, states and field shapes found
// on real clusters (see ../shared/fixtures/pods), so the UI and the client meet every case. The same
// seed, node name and clock always give the same pods.
import type { PodTree } from '../pod/pod-tree';
import {
  type AppTemplate,
  type StaticApp,
  daemonSetApps,
  debugImages,
  deploymentApps,
  initApps,
  jobApps,
  namePrefixes,
  namespaces,
  sidecarApps,
  staticApps,
  statefulApps,
  systemNamespace,
} from './pod-catalog';
import { podContainer } from './pod-containers';
import { managedFields } from './pod-managed-fields';
import { podMetadata } from './pod-metadata';
import { podSpec } from './pod-spec';
import { type PodState, podStatus } from './pod-status-for-state';
import { podTime } from './pod-time';
import { mainMounts, podVolumes } from './pod-volumes';
import { Prng } from './prng';
import type { NodeFacts, Workload, WorkloadKind } from './workload';

export interface PodGeneratorOptions {
  seed: number;
  nodeName: string;
}

const DAY = 86_400_000;

export class PodGenerator implements NodeFacts {
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

    const metadata = podMetadata(this, rng, w, name, uid, createdMs, tpl);
    const volumes = podVolumes(w, name, tpl, apiAccess);
    const mounts = mainMounts(volumes, w);
    const containers = [podContainer(w.app, tpl, w, mounts, true)];
    if (extra) containers.push(podContainer(extra, tpl, w, mounts.slice(-1), false));
    const initContainers = init.map((app) => podContainer(app, tpl, w, mounts.slice(-1), false));
    if (sidecar) {
      const sc = podContainer(sidecar, tpl, w, mounts.slice(-1), false);
      sc.restartPolicy = 'Always';
      initContainers.push(sc);
    }
    const spec = podSpec(this.nodeName, w, name, tpl, containers, initContainers, volumes, hostNetwork, state === 'unschedulable');
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
    pod.status = podStatus(this, rng, (hostNetwork) => this.allocatePodIPs(hostNetwork), pod, w, state, createdMs, nowMs, hostNetwork);
    if (state === 'terminating') {
      const grace = spec.terminationGracePeriodSeconds as number;
      metadata.deletionGracePeriodSeconds = grace;
      metadata.deletionTimestamp = podTime(nowMs + rng.int(1, Math.max(1, grace)) * 1000);
    }
    if (w.kind !== 'Static' && rng.chance(0.3)) metadata.managedFields = managedFields(pod, createdMs, nowMs);
    return pod;
  }
}

/** `count` pods for one node as found at `nowMs`, deterministic for the seed. */
export function generatePods(count: number, options: PodGeneratorOptions & { nowMs: number }): PodTree[] {
  const generator = new PodGenerator(options);
  const pods: PodTree[] = [];
  for (let i = 0; i < count; i++) pods.push(generator.existing(options.nowMs));
  return pods;
}
