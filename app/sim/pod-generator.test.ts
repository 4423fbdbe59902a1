import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { PodObject, PodTree } from '../pod/pod-tree';
import { generatePods, PodGenerator } from './pod-generator';

const nowMs = Date.parse('2026-11-21T06:00:00Z');
const opts = { seed: 1234, nodeName: 'worker-7', nowMs };

const m = (p: PodTree) => p.metadata as PodObject;
const spec = (p: PodTree) => p.spec as PodObject;
const st = (p: PodTree) => p.status as PodObject;
const owner = (p: PodTree) => ((m(p).ownerReferences as PodObject[] | undefined)?.[0]?.kind as string | undefined) ?? 'none';
const containersOf = (p: PodTree) => [
  ...(spec(p).containers as PodObject[]),
  ...((spec(p).initContainers as PodObject[] | undefined) ?? []),
];
const statusesOf = (p: PodTree) => [
  ...((st(p).containerStatuses as PodObject[] | undefined) ?? []),
  ...((st(p).initContainerStatuses as PodObject[] | undefined) ?? []),
];
const waitingReasons = (p: PodTree) =>
  statusesOf(p).map((c) => ((c.state as PodObject).waiting as PodObject | undefined)?.reason).filter(Boolean);

describe('generatePods', () => {
  it('gives identical pods for the same seed and different pods for another seed', () => {
    const a = generatePods(200, opts);
    expect(generatePods(200, opts)).toEqual(a);
    const other = generatePods(200, { ...opts, seed: 1235 });
    expect(other.map((p) => m(p).uid)).not.toEqual(a.map((p) => m(p).uid));
  });

  // A seed names a node's pods for good: bug reports, recordings and benchmarks quote seeds. The digest
  // covers every field, in order, of pods found on the node and of pods just bound to it, so any change to
  // the generator's output (or to the order it draws random numbers in) must be a deliberate one here.
  it.each([
    [1, '4c6fd8c8768e0c7f2c4f4ae5c01fcdba3ef318062e806c9f901cdf7791d2ef53'],
    [2, '19bf7c408bed8404a30b7be0311ba6b3503f5b75d59064a9e6db894104b0abb7'],
    [3, 'f4a20c14020580037465102bd3bd1c1c3e6b01a0b39c9680a6613170ac68140b'],
  ])('gives the same pods for seed %i as it always has', (seed, digest) => {
    const generator = new PodGenerator({ seed, nodeName: 'worker-7' });
    const pods = [...Array.from({ length: 300 }, () => generator.existing(nowMs)), ...Array.from({ length: 20 }, () => generator.fresh(nowMs))];
    expect(createHash('sha256').update(JSON.stringify(pods)).digest('hex')).toBe(digest);
  });

  it('gives unique v4 UIDs and unique namespaced names', () => {
    const pods = generatePods(2000, opts);
    const uids = pods.map((p) => m(p).uid as string);
    expect(new Set(uids).size).toBe(pods.length);
    for (const uid of uids) expect(uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(pods.map((p) => `${m(p).namespace}/${m(p).name}`)).size).toBe(pods.length);
  });

  it.each([1234, 1, 99])('covers every workload kind, state and field shape a node shows, within 300 pods (seed %i)', (seed) => {
    const pods = generatePods(300, { ...opts, seed });
    const some = (what: string, test: (p: PodTree) => boolean) => expect(pods.some(test), what).toBe(true);

    for (const kind of ['ReplicaSet', 'DaemonSet', 'StatefulSet', 'Job', 'Node', 'none']) some(`owner ${kind}`, (p) => owner(p) === kind);
    some('Deployment pod-template-hash', (p) => owner(p) === 'ReplicaSet' && typeof (m(p).labels as PodObject)['pod-template-hash'] === 'string');
    some('StatefulSet hostname/subdomain/pod-index', (p) => owner(p) === 'StatefulSet' && spec(p).hostname === m(p).name && typeof spec(p).subdomain === 'string' && (m(p).labels as PodObject)['apps.kubernetes.io/pod-index'] !== undefined);
    some('CronJob pod (Job named with a minute stamp)', (p) => owner(p) === 'Job' && /-\d{8}-[a-z0-9]{5}$/.test(m(p).name as string));
    for (const component of ['kube-apiserver', 'etcd', 'kube-scheduler']) {
      some(`static mirror ${component}`, (p) => m(p).name === `${component}-worker-7` && (m(p).annotations as PodObject)['kubernetes.io/config.mirror'] !== undefined);
    }

    for (const phase of ['Running', 'Pending', 'Succeeded', 'Failed']) some(`phase ${phase}`, (p) => st(p).phase === phase);
    some('unschedulable', (p) => ((st(p).conditions as PodObject[])[0] as PodObject).reason === 'Unschedulable' && spec(p).nodeName === undefined);
    for (const reason of ['CrashLoopBackOff', 'ContainerCreating', 'PodInitializing']) some(reason, (p) => waitingReasons(p).includes(reason));
    some('crash loop with lastState terminated and restarts', (p) =>
      statusesOf(p).some((c) => (c.restartCount as number) > 2 && (c.lastState as PodObject).terminated !== undefined),
    );
    some('terminating', (p) => typeof m(p).deletionTimestamp === 'string' && typeof m(p).deletionGracePeriodSeconds === 'number');
    some('not ready while running', (p) => st(p).phase === 'Running' && (st(p).conditions as PodObject[]).some((c) => c.type === 'Ready' && c.status === 'False'));

    some('init container', (p) => (spec(p).initContainers as PodObject[] | undefined)?.some((c) => c.restartPolicy === undefined) === true);
    some('sidecar (init container with restartPolicy Always)', (p) => (spec(p).initContainers as PodObject[] | undefined)?.some((c) => c.restartPolicy === 'Always') === true);
    some('ephemeral container with status', (p) => Array.isArray(spec(p).ephemeralContainers) && Array.isArray(st(p).ephemeralContainerStatuses));

    const probes = pods.flatMap((p) => containersOf(p).flatMap((c) => [c.livenessProbe, c.readinessProbe, c.startupProbe].filter(Boolean) as PodObject[]));
    for (const handler of ['httpGet', 'exec', 'tcpSocket', 'grpc']) expect(probes.some((pr) => pr[handler] !== undefined), handler).toBe(true);
    const probePorts = probes.map((pr) => ((pr.httpGet ?? pr.tcpSocket) as PodObject | undefined)?.port).filter((x) => x !== undefined);
    expect(probePorts.some((x) => typeof x === 'number'), 'int port').toBe(true);
    expect(probePorts.some((x) => typeof x === 'string'), 'named port').toBe(true);

    const volumes = pods.flatMap((p) => (spec(p).volumes as PodObject[] | undefined) ?? []);
    for (const source of ['projected', 'configMap', 'secret', 'emptyDir', 'hostPath', 'persistentVolumeClaim']) {
      expect(volumes.some((v) => v[source] !== undefined), source).toBe(true);
    }
    const env = pods.flatMap((p) => containersOf(p).flatMap((c) => (c.env as PodObject[] | undefined) ?? []));
    for (const from of ['fieldRef', 'secretKeyRef', 'configMapKeyRef', 'resourceFieldRef']) {
      expect(env.some((e) => (e.valueFrom as PodObject | undefined)?.[from] !== undefined), from).toBe(true);
    }
    for (const qos of ['Guaranteed', 'Burstable', 'BestEffort']) some(`qos ${qos}`, (p) => st(p).qosClass === qos);
    some('resources with quantities', (p) => containersOf(p).some((c) => /^\d+(m|Mi|Gi)?$/.test(String(((c.resources as PodObject).requests as PodObject | undefined)?.cpu))));
    some('tolerations', (p) => Array.isArray(spec(p).tolerations));
    some('node affinity', (p) => (spec(p).affinity as PodObject | undefined)?.nodeAffinity !== undefined);
    some('pod anti-affinity', (p) => (spec(p).affinity as PodObject | undefined)?.podAntiAffinity !== undefined);
    some('pod securityContext', (p) => (spec(p).securityContext as PodObject).runAsNonRoot === true);
    some('container securityContext', (p) => containersOf(p).some((c) => (c.securityContext as PodObject).privileged === true));
    some('managedFields', (p) => Array.isArray(m(p).managedFields));
    some('podIPs', (p) => Array.isArray(st(p).podIPs));
    some('containerID and imageID', (p) => statusesOf(p).some((c) => String(c.containerID).startsWith('containerd://') && String(c.imageID).includes('sha256:')));
    some('many labels', (p) => Object.keys(m(p).labels as PodObject).length >= 6);
    some('annotations beyond the kubelet ones', (p) => Object.keys(m(p).annotations as PodObject).length >= 4);
  });

  it('keeps times realistic: RFC 3339 to the second, nothing after now, in causal order', () => {
    for (const p of generatePods(500, opts)) {
      const created = Date.parse(m(p).creationTimestamp as string);
      expect(m(p).creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(created).toBeLessThanOrEqual(nowMs);
      for (const c of (st(p).conditions as PodObject[]) ?? []) {
        const t = Date.parse(c.lastTransitionTime as string);
        expect(t).toBeGreaterThanOrEqual(created);
        expect(t).toBeLessThanOrEqual(nowMs);
      }
    }
  });
});
