import { ContractError } from '../../app/contract/errors';
import { createFakeBridge, type FakeBridge } from '../../app/contract/fake-bridge';
import type { NodeInfo, NodeState } from '../../app/contract/nodes';
import { podRowFromTree } from '../../app/contract/pod-row-from-tree';
import type { FeedLine, PodRow } from '../../app/contract/pods';
import type { Prompt } from '../../app/contract/prompts';
import type { MaskCheck } from '../../app/contract/requests';
import { summarizePod } from '../../app/contract/summarize-pod';
import type { PodObject, PodTree } from '../../app/pod/pod-tree';

/**
 * The design preview's app core: an in-memory stand-in with a few hundred plausible pods and light
 * churn, so the UI can be built, screenshot and judged without SSH or a kubelet. Never shipped
 * (built only with `vite build --mode preview`).
 */

function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

const WORKLOADS: [ns: string, name: string, kind: string, image: string, replicas: number][] = [
  ['kube-system', 'coredns', 'ReplicaSet', 'registry.example.internal/coredns/coredns:v1.12.1', 2],
  ['kube-system', 'kube-proxy', 'DaemonSet', 'registry.example.internal/kube-proxy:v1.35.0', 1],
  ['kube-system', 'kindnet', 'DaemonSet', 'registry.example.internal/kindest/kindnetd:v20250512', 1],
  ['kube-system', 'metrics-server', 'ReplicaSet', 'registry.example.internal/metrics-server/metrics-server:v0.8.0', 1],
  ['ingress-nginx', 'ingress-nginx-controller', 'ReplicaSet', 'registry.example.internal/ingress-nginx/controller:v1.13.0', 2],
  ['cert-manager', 'cert-manager', 'ReplicaSet', 'registry.example.internal/jetstack/cert-manager-controller:v1.18.2', 1],
  ['cert-manager', 'cert-manager-webhook', 'ReplicaSet', 'registry.example.internal/jetstack/cert-manager-webhook:v1.18.2', 1],
  ['monitoring', 'prometheus-k8s', 'StatefulSet', 'registry.example.internal/prometheus/prometheus:v3.5.0', 2],
  ['monitoring', 'alertmanager-main', 'StatefulSet', 'registry.example.internal/prometheus/alertmanager:v0.28.1', 3],
  ['monitoring', 'node-exporter', 'DaemonSet', 'registry.example.internal/prometheus/node-exporter:v1.9.1', 1],
  ['monitoring', 'grafana', 'ReplicaSet', 'registry.example.internal/grafana/grafana:12.1.0', 1],
  ['logging', 'fluent-bit', 'DaemonSet', 'cr.fluentbit.io/fluent/fluent-bit:4.0.3', 1],
  ['logging', 'loki', 'StatefulSet', 'registry.example.internal/grafana/loki:3.5.1', 3],
  ['shop', 'storefront', 'ReplicaSet', 'registry.example.internal/acme/storefront:2.14.3', 12],
  ['shop', 'cart', 'ReplicaSet', 'registry.example.internal/acme/cart:1.9.0', 8],
  ['shop', 'checkout', 'ReplicaSet', 'registry.example.internal/acme/checkout:3.2.1', 8],
  ['shop', 'catalog', 'ReplicaSet', 'registry.example.internal/acme/catalog:5.0.0', 10],
  ['shop', 'redis-cart', 'StatefulSet', 'registry.example.internal/library/redis:8.0', 3],
  ['payments', 'payments-api', 'ReplicaSet', 'registry.example.internal/acme/payments-api:7.3.0', 10],
  ['payments', 'fraud-scorer', 'ReplicaSet', 'registry.example.internal/acme/fraud-scorer:0.31.2', 6],
  ['payments', 'ledger', 'StatefulSet', 'registry.example.internal/library/postgres:17.5', 3],
  ['search', 'opensearch', 'StatefulSet', 'registry.example.internal/opensearchproject/opensearch:3.1.0', 5],
  ['search', 'indexer', 'ReplicaSet', 'registry.example.internal/acme/indexer:2.0.4', 14],
  ['batch', 'nightly-report', 'Job', 'registry.example.internal/acme/reports:2026.1', 24],
  ['batch', 'thumbnailer', 'Job', 'registry.example.internal/acme/thumbnailer:1.4.0', 40],
  ['ml', 'feature-store', 'ReplicaSet', 'registry.example.internal/acme/feature-store:0.9.8', 16],
  ['ml', 'inference', 'ReplicaSet', 'registry.example.internal/acme/inference:4.2.0-cuda', 20],
  ['ci', 'runner', 'ReplicaSet', 'registry.example.internal/actions/actions-runner:2.327.1', 30],
  ['tenant-a', 'web', 'ReplicaSet', 'registry.example.internal/library/nginx:1.29', 25],
  ['tenant-b', 'web', 'ReplicaSet', 'registry.example.internal/library/nginx:1.29', 25],
  ['tenant-c', 'api', 'ReplicaSet', 'registry.example.internal/acme/tenant-api:1.1.0', 30],
];

const STATIC = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler'];

function podTree(r: () => number, ns: string, name: string, kind: string, owner: string, image: string, node: string, index: number, now: number): PodTree {
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(r() * 16).toString(16)).join('');
  const uid = `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
  const created = new Date(now - Math.floor(r() * 40 * 86400_000 * (kind === 'Job' ? 0.05 : 1))).toISOString().replace(/\.\d+Z$/, 'Z');
  const roll = r();
  const job = kind === 'Job';
  const isStatic = kind === 'Node';
  let phase = 'Running';
  let state: PodObject = { running: { startedAt: created } };
  let ready = true;
  let restarts = roll > 0.93 ? Math.floor(r() * 40) : roll > 0.8 ? Math.floor(r() * 3) : 0;
  let lastState: PodObject = {};
  if (job) {
    phase = roll < 0.85 ? 'Succeeded' : roll < 0.95 ? 'Failed' : 'Running';
    if (phase !== 'Running') {
      state = { terminated: { exitCode: phase === 'Failed' ? 1 : 0, reason: phase === 'Failed' ? 'Error' : 'Completed', startedAt: created, finishedAt: created } };
      ready = false;
    }
  } else if (roll > 0.975) {
    state = { waiting: { reason: 'CrashLoopBackOff', message: `back-off 5m0s restarting failed container=${owner} pod=${name}` } };
    ready = false;
    restarts = 12 + Math.floor(r() * 200);
    lastState = { terminated: { exitCode: 1, reason: 'Error', startedAt: created, finishedAt: created } };
  } else if (roll > 0.96) {
    phase = 'Pending';
    state = { waiting: { reason: 'ContainerCreating' } };
    ready = false;
  } else if (roll > 0.95) {
    state = { waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${image}"` } };
    phase = 'Pending';
    ready = false;
  } else if (restarts > 0) {
    lastState = { terminated: { exitCode: 137, reason: 'OOMKilled', startedAt: created, finishedAt: created } };
  }
  const container = owner.split('-')[0] ?? owner;
  const labels: Record<string, string> = { 'app.kubernetes.io/name': owner, 'app.kubernetes.io/part-of': ns };
  if (!isStatic && !job) labels['pod-template-hash'] = hex(10);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: ns,
      uid,
      resourceVersion: String(1000 + index),
      creationTimestamp: created,
      labels,
      annotations: isStatic
        ? { 'kubernetes.io/config.source': 'file', 'kubernetes.io/config.hash': hex(32) }
        : { 'kubernetes.io/config.source': 'api', 'kubernetes.io/config.seen': created },
      ownerReferences: [{ apiVersion: isStatic ? 'v1' : 'apps/v1', kind, name: isStatic ? node : owner, uid: `${hex(8)}-${hex(4)}`, controller: true, blockOwnerDeletion: true }],
    },
    spec: {
      nodeName: node,
      restartPolicy: job ? 'Never' : 'Always',
      serviceAccountName: isStatic ? '' : 'default',
      priorityClassName: ns === 'kube-system' || isStatic ? 'system-node-critical' : '',
      containers: [
        {
          name: container,
          image,
          ports: job ? [] : [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
          resources: { requests: { cpu: `${[50, 100, 250, 500][Math.floor(r() * 4)]}m`, memory: `${[64, 128, 256, 512][Math.floor(r() * 4)]}Mi` }, limits: { memory: `${[256, 512, 1024][Math.floor(r() * 3)]}Mi` } },
          ...(job ? {} : { livenessProbe: { httpGet: { path: '/healthz', port: 8080, scheme: 'HTTP' }, periodSeconds: 10, timeoutSeconds: 1, failureThreshold: 3 }, readinessProbe: { httpGet: { path: '/ready', port: 8080, scheme: 'HTTP' }, periodSeconds: 5 } }),
          volumeMounts: [{ name: 'kube-api-access', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true }],
        },
      ],
      volumes: [
        { name: 'kube-api-access', projected: { defaultMode: 420, sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3607 } }, { configMap: { name: 'kube-root-ca.crt' } }] } },
        ...(ns === 'monitoring' ? [{ name: 'config', configMap: { name: `${owner}-config` } }] : []),
      ],
    },
    status: {
      phase,
      qosClass: 'Burstable',
      hostIP: '172.18.0.3',
      podIP: phase === 'Pending' ? '' : isStatic || owner.includes('exporter') || owner.includes('proxy') ? '172.18.0.3' : `10.244.${1 + (index >> 8)}.${index & 255}`,
      startTime: created,
      conditions: [
        { type: 'PodReadyToStartContainers', status: phase === 'Pending' ? 'False' : 'True', lastTransitionTime: created },
        { type: 'Initialized', status: 'True', lastTransitionTime: created },
        { type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: created, ...(ready ? {} : { reason: 'ContainersNotReady', message: `containers with unready status: [${container}]` }) },
        { type: 'ContainersReady', status: ready ? 'True' : 'False', lastTransitionTime: created },
        { type: 'PodScheduled', status: 'True', lastTransitionTime: created },
      ],
      containerStatuses: [{ name: container, image, imageID: `${image.split(':')[0]}@sha256:${hex(64)}`, ready, started: ready, restartCount: restarts, state, lastState }],
    },
  };
}

interface FakeNode {
  info: NodeInfo;
  pods: Map<string, PodTree>;
  seq: number;
}

/** scale multiplies the demo node's pods (1 ≈ 310); eventsPerSecond sets the churn. */
export function createFakeAppCore(options: { seed?: number; scale?: number; eventsPerSecond?: number } = {}): FakeBridge {
  const r = rng(options.seed ?? 7);
  const word = (n: number) => Array.from({ length: n }, () => 'bcdfghjklmnpqrstvwxz2456789'[Math.floor(r() * 27)]).join('');
  const now = Date.now();
  const nodes = new Map<string, FakeNode>();
  const prompts = new Map<string, Prompt>();
  let nextId = 1;

  function makePods(nodeName: string, scale: number): Map<string, PodTree> {
    const pods = new Map<string, PodTree>();
    let i = 0;
    for (const s of STATIC) {
      const p = podTree(r, 'kube-system', `${s}-${nodeName}`, 'Node', s, `registry.example.internal/${s}:v1.35.0`, nodeName, i++, now);
      pods.set(String((p.metadata as PodObject).uid), p);
    }
    for (const [ns, name, kind, image, replicas] of WORKLOADS) {
      const count = Math.max(1, Math.round(replicas * scale));
      for (let k = 0; k < count; k++) {
        const suffix = kind === 'StatefulSet' ? String(k) : kind === 'DaemonSet' ? word(5) : `${word(10)}-${word(5)}`;
        const p = podTree(r, ns, `${name}-${suffix}`, kind, name, image, nodeName, i++, now);
        pods.set(String((p.metadata as PodObject).uid), p);
      }
    }
    return pods;
  }

  function addNode(label: string, simulated: boolean, state: NodeState, scale: number, host = label): FakeNode {
    const id = `node-${nextId++}`;
    const pods = state.phase === 'live' ? makePods(label, scale) : new Map<string, PodTree>();
    const node: FakeNode = { info: { id, label, simulated, spec: { host }, state, mask: '', maskPaths: [], maskHonoured: null, podCount: pods.size }, pods, seq: 0 };
    nodes.set(id, node);
    return node;
  }

  const demo = addNode('kind-worker', true, { phase: 'live', since: now - 3600_000 }, options.scale ?? 1);
  addNode('edge-7.prod', false, { phase: 'reconnecting', attempt: 3, retryAt: now + 9000, cause: 'SSH connection reset by peer' }, 1, 'edge-7.prod.example.internal');
  addNode('gpu-node-2', false, { phase: 'error', cause: 'Permission denied opening /var/lib/kubelet/pods-api/pods-api.sock', nextStep: 'Turn on “Use sudo” in the node settings, or add the SSH user to the kubelet group.' }, 1);

  const bridge: FakeBridge = createFakeBridge();
  const rowOf = (p: PodTree) => podRowFromTree(p);
  const get = (nodeId: string) => {
    const node = nodes.get(nodeId);
    if (!node) throw new Error(`No node ${nodeId}.`);
    return node;
  };
  const publish = (node: FakeNode) => {
    node.info = { ...node.info, podCount: node.pods.size };
    bridge.emit('nodeState', node.info);
  };
  const setState = (node: FakeNode, state: NodeState) => {
    node.info = { ...node.info, state };
    publish(node);
  };
  const checkMask = (mask: string): MaskCheck => {
    const paths = mask.split(',').map((p) => p.trim()).filter(Boolean);
    for (const path of paths) {
      if (!/^[a-zA-Z][\w]*(\.[a-zA-Z][\w]*)*$/.test(path)) {
        return { ok: false, error: `"${path}" is not a field path. Write dotted JSON names, e.g. status.podIP.`, position: mask.indexOf(path) };
      }
    }
    return { ok: true, paths };
  };

  bridge.handle({
    'app.info': () => ({ version: '0.1.0-preview', mode: 'browser', canPickFiles: false, defaultExportDir: '/home/operator/Downloads' }),
    'nodes.list': () => [...nodes.values()].map((n) => n.info),
    'sshHosts.list': () => [
      { alias: 'bastion', hostName: 'bastion.prod.example.internal', user: 'ops' },
      { alias: 'edge-7.prod', hostName: '10.40.7.12', user: 'core', proxyJump: 'bastion' },
      { alias: 'gpu-node-2', hostName: '10.40.9.2', user: 'core', port: 2222 },
      { alias: 'kind-control-plane', hostName: '127.0.0.1', port: 32771, user: 'root' },
    ],
    'nodes.add': (spec) => {
      const node = addNode(spec.label ?? spec.host, false, { phase: 'connecting', attempt: 1 }, 0.3, spec.host);
      node.info = { ...node.info, spec };
      setTimeout(() => {
        const prompt: Prompt = { kind: 'hostKey', id: `prompt-${nextId++}`, nodeId: node.info.id, host: spec.host, port: spec.port ?? 22, keyType: 'ssh-ed25519', fingerprint: 'SHA256:Jq1x7rQ0hVv3b2Hn0s8pQ0j8oJ0u6W3cXnQY0v9kLqg' };
        prompts.set(prompt.id, prompt);
        setState(node, { phase: 'waitingForUser', waitingFor: 'hostKey', promptId: prompt.id });
        bridge.emit('prompt', prompt);
      }, 400);
      return node.info;
    },
    'prompts.pending': () => [...prompts.values()],
    'prompts.answer': ({ promptId, answer }) => {
      const prompt = prompts.get(promptId);
      if (!prompt) throw new ContractError('not-found', 'That question was already answered.');
      prompts.delete(promptId);
      const node = get(prompt.nodeId);
      if (answer.kind === 'hostKey' && answer.decision === 'refuse') {
        setState(node, { phase: 'error', cause: 'Host key refused', nextStep: 'Check the fingerprint with the node’s administrator, then connect again.' });
        return {};
      }
      setState(node, { phase: 'kubeletInitializing' });
      setTimeout(() => {
        node.pods = makePods(node.info.label, 0.3);
        node.seq++;
        bridge.emit('podDeltas', { nodeId: node.info.id, seq: node.seq, reset: true, upserts: [...node.pods.values()].map(rowOf), removals: [] });
        setState(node, { phase: 'live', since: Date.now() });
      }, 900);
      return {};
    },
    'nodes.remove': ({ nodeId }) => {
      get(nodeId);
      nodes.delete(nodeId);
      bridge.emit('nodeRemoved', { nodeId });
      return {};
    },
    'nodes.connect': ({ nodeId }) => (setState(get(nodeId), { phase: 'connecting', attempt: 1 }), {}),
    'nodes.disconnect': ({ nodeId }) => (setState(get(nodeId), { phase: 'disconnected' }), {}),
    'nodes.startDemo': () => demo.info,
    'nodes.setMask': ({ nodeId, mask }) => {
      const check = checkMask(mask);
      if (check.ok) {
        const node = get(nodeId);
        node.info = { ...node.info, mask: check.paths.join(','), maskPaths: check.paths };
        publish(node);
      }
      return check;
    },
    'mask.validate': ({ mask }) => checkMask(mask),
    'notices.list': () => [],
    'notices.dismiss': () => ({}),
    'pods.rows': ({ nodeId }) => {
      const node = get(nodeId);
      return { seq: node.seq, rows: [...node.pods.values()].map(rowOf) };
    },
    'pods.get': ({ nodeId, uid }) => {
      const pod = get(nodeId).pods.get(uid);
      if (!pod) throw new Error('That pod is gone from the node.');
      return { json: JSON.stringify(pod, null, 4) + '\n', summary: summarizePod(pod), notSelected: [], unknownFields: uid.startsWith('0') ? [{ path: 'status', fieldNumber: 42, wireType: 2, rawHex: '0a0474657374' }] : [] };
    },
    'pods.export': ({ nodeId, uids, path }) => {
      const count = uids === 'all' ? get(nodeId).pods.size : uids.length;
      return { status: 'saved', path: path ?? '/home/operator/Downloads/pods.json', count, bytes: count * 5200 };
    },
  });

  // Light churn on the demo node: restarts, readiness flips, a job pod replaced now and then.
  if (options.eventsPerSecond === 0) return bridge;
  setInterval(() => {
    const pods = [...demo.pods.values()];
    const upserts: PodRow[] = [];
    const removals: string[] = [];
    const lines: FeedLine[] = [];
    const perTick = Math.max(1, Math.round((options.eventsPerSecond ?? 4) / 10));
    for (let k = 0; k < perTick; k++) {
      const pod = pods[Math.floor(r() * pods.length)];
      if (!pod) continue;
      const meta = pod.metadata as PodObject;
      const status = pod.status as PodObject;
      const cs = (status.containerStatuses as PodObject[] | undefined)?.[0];
      if (!cs) continue;
      const line = { time: Date.now(), nodeId: demo.info.id, namespace: String(meta.namespace), name: String(meta.name), uid: String(meta.uid) };
      if (r() < 0.5) {
        cs.restartCount = Number(cs.restartCount) + 1;
        lines.push({ ...line, type: 'MODIFIED', change: `container ${String(cs.name)} restarted (${String(cs.restartCount)})` });
      } else {
        cs.ready = !cs.ready;
        lines.push({ ...line, type: 'MODIFIED', change: `container ${String(cs.name)} ${cs.ready ? 'became ready' : 'is no longer ready'}` });
      }
      meta.resourceVersion = String(Number(meta.resourceVersion) + 1);
      upserts.push(rowOf(pod));
    }
    if (r() < 0.05) {
      const victim = pods.find((p) => (p.metadata as PodObject).namespace === 'batch');
      if (victim) {
        const meta = victim.metadata as PodObject;
        demo.pods.delete(String(meta.uid));
        removals.push(String(meta.uid));
        lines.push({ time: Date.now(), nodeId: demo.info.id, type: 'DELETED', namespace: 'batch', name: String(meta.name), uid: String(meta.uid), change: 'deleted' });
        const fresh = podTree(r, 'batch', `thumbnailer-${word(5)}`, 'Job', 'thumbnailer', 'registry.example.internal/acme/thumbnailer:1.4.0', demo.info.label, 900, Date.now());
        const freshMeta = fresh.metadata as PodObject;
        demo.pods.set(String(freshMeta.uid), fresh);
        upserts.push(rowOf(fresh));
        lines.push({ time: Date.now(), nodeId: demo.info.id, type: 'ADDED', namespace: 'batch', name: String(freshMeta.name), uid: String(freshMeta.uid), change: `created, ${String((fresh.status as PodObject).phase)}` });
      }
    }
    demo.seq++;
    bridge.emit('podDeltas', { nodeId: demo.info.id, seq: demo.seq, reset: false, upserts, removals });
    bridge.emit('watchEvents', { lines });
    publish(demo);
  }, 100);

  return bridge;
}
