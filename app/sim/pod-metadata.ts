// A generated pod's metadata: the labels, annotations and owner references each kind of workload leaves on
// its pods. `rng` draws what differs between replicas; `tpl` (the workload's template stream) what they share.
import type { PodObject } from '../pod/pod-tree';
import { environments, teams } from './pod-catalog';
import { podTime, podTimeNanos } from './pod-time';
import type { Prng } from './prng';
import type { NodeFacts, Workload } from './workload';

export function podMetadata(node: NodeFacts, rng: Prng, w: Workload, name: string, uid: string, createdMs: number, tpl: Prng): PodObject {
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
      if (w.app.name === 'etcd') annotations['kubeadm.kubernetes.io/etcd.advertise-client-urls'] = `https://${node.hostIP}:2379`;
      meta.ownerReferences = [{ apiVersion: 'v1', controller: true, kind: 'Node', name: node.nodeName, uid: node.nodeUid }];
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
  meta.resourceVersion = String(rng.int(1000, 99_999_999));
  meta.uid = uid;
  return meta;
}
