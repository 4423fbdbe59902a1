// A generated pod's spec around its containers and volumes: scheduling, priority, tolerations, affinity,
// security context and service account, by workload kind.
import type { PodObject } from '../pod/pod-tree';
import { systemNamespace } from './pod-catalog';
import type { Prng } from './prng';
import type { Workload } from './workload';

const defaultTolerations = [
  { effect: 'NoExecute', key: 'node.kubernetes.io/not-ready', operator: 'Exists', tolerationSeconds: 300 },
  { effect: 'NoExecute', key: 'node.kubernetes.io/unreachable', operator: 'Exists', tolerationSeconds: 300 },
];

export function podSpec(
  nodeName: string,
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
  if (!unscheduled) spec.nodeName = nodeName;
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
          nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }],
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
