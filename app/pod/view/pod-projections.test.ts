import { describe, expect, it } from 'vitest';
import { hasSharedPods, sharedPodsDir } from '../../testing/shared-fixtures';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PodTree } from '../pod-tree';
import { PodRowSchema, PodSummarySchema } from '../../contract/pods';
import { podRowFromTree } from './pod-row-from-tree';
import { summarizePod } from './summarize-pod';

/** A crash-looping pod with an init container, a sidecar and a probe: the cases the table and detail explain. */
const crashing: PodTree = {
  metadata: {
    name: 'api-7d9f',
    namespace: 'shop',
    uid: 'uid-1',
    creationTimestamp: '2026-03-01T10:00:00Z',
    labels: { app: 'api' },
    ownerReferences: [
      { kind: 'Node', name: 'n1' },
      { kind: 'ReplicaSet', name: 'api-7d9', controller: true },
    ],
  },
  spec: {
    nodeName: 'n1',
    initContainers: [
      { name: 'migrate', image: 'migrate:1' },
      { name: 'proxy', image: 'envoy:1', restartPolicy: 'Always' },
    ],
    containers: [
      {
        name: 'app',
        image: 'api:2',
        ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
        resources: { requests: { cpu: '100m' }, limits: { memory: '256Mi' } },
        livenessProbe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 5 },
      },
    ],
    volumes: [{ name: 'cfg', configMap: { name: 'api-config' } }],
  },
  status: {
    phase: 'Running',
    podIP: '10.1.2.3',
    initContainerStatuses: [
      { name: 'migrate', ready: false, restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed' } } },
      { name: 'proxy', ready: true, started: true, restartCount: 1, state: { running: { startedAt: '2026-03-01T10:00:05Z' } } },
    ],
    containerStatuses: [
      {
        name: 'app',
        ready: false,
        restartCount: 4,
        state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 40s' } },
        lastState: { terminated: { exitCode: 137, reason: 'OOMKilled', startedAt: '2026-03-01T10:01:00Z', finishedAt: '2026-03-01T10:01:09Z' } },
      },
    ],
  },
};

describe('podRowFromTree', () => {
  it('gives the table kubectl’s status, ready count, restarts and the controlling owner', () => {
    const row = podRowFromTree(crashing);
    expect(PodRowSchema.parse(row)).toEqual(row);
    expect(row).toMatchObject({
      status: 'CrashLoopBackOff',
      phase: 'Running',
      // kubectl counts the started sidecar in READY (1/2) and its restarts in RESTARTS (1 + 4).
      ready: 1,
      total: 2,
      restarts: 5,
      ownerKind: 'ReplicaSet',
      ownerName: 'api-7d9',
      isStatic: false,
      deleting: false,
      podIP: '10.1.2.3',
    });
  });

  it('flags static pods and pods being deleted', () => {
    const mirror = podRowFromTree({
      metadata: { uid: 'u', annotations: { 'kubernetes.io/config.mirror': 'abc' }, deletionTimestamp: '2026-03-01T10:00:00Z' },
    });
    expect(mirror).toMatchObject({ isStatic: true, deleting: true, status: 'Terminating', createdAt: null });
  });

  it('keeps every label, even one whose key is __proto__ (maps come from the wire as they are)', () => {
    const labels = JSON.parse('{"app":"web","__proto__":"x"}') as Record<string, string>;
    const row = podRowFromTree({ metadata: { uid: 'u', labels } });
    expect(Object.keys(row.labels).sort()).toEqual(['__proto__', 'app']);
    expect(row.labels.app).toBe('web');
  });

  it('shows the init step a pod is stuck on', () => {
    const pod: PodTree = {
      metadata: { uid: 'u' },
      spec: { initContainers: [{ name: 'a' }, { name: 'b' }], containers: [{ name: 'c' }] },
      status: {
        phase: 'Pending',
        initContainerStatuses: [
          { name: 'a', state: { terminated: { exitCode: 0 } } },
          { name: 'b', state: { terminated: { exitCode: 3 } } },
        ],
      },
    };
    expect(podRowFromTree(pod).status).toBe('Init:ExitCode:3');
  });

  it('follows kubectl where the plain reading differs: gates, finished pods, lost nodes, init restarts', () => {
    const gated = podRowFromTree({
      metadata: { uid: 'g' },
      spec: { containers: [{ name: 'c' }] },
      status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] },
    });
    expect(gated.status).toBe('SchedulingGated');

    const finishedDeleting = podRowFromTree({
      metadata: { uid: 'f', deletionTimestamp: '2026-03-01T10:00:00Z' },
      status: { phase: 'Succeeded' },
    });
    expect(finishedDeleting).toMatchObject({ status: 'Succeeded', deleting: true });
    const lost = podRowFromTree({ metadata: { uid: 'l', deletionTimestamp: '2026-03-01T10:00:00Z' }, status: { phase: 'Running', reason: 'NodeLost' } });
    expect(lost.status).toBe('Unknown');

    // Restarts of a regular init container that finished are no longer counted once the pod runs;
    // a container that runs but is not ready does not count as ready.
    const running = podRowFromTree({
      metadata: { uid: 'r' },
      spec: { initContainers: [{ name: 'init' }], containers: [{ name: 'a' }, { name: 'b' }] },
      status: {
        phase: 'Running',
        initContainerStatuses: [{ name: 'init', restartCount: 3, state: { terminated: { exitCode: 0 } } }],
        containerStatuses: [
          { name: 'a', ready: true, restartCount: 1, state: { running: {} } },
          { name: 'b', ready: true, restartCount: 0, state: { waiting: { reason: 'ContainerCreating' } } },
        ],
      },
    });
    expect(running).toMatchObject({ status: 'ContainerCreating', ready: 1, total: 2, restarts: 1 });

    // Under a field mask such as status.containerStatuses.ready the state is gone: ready is taken as it is.
    const masked = podRowFromTree({ status: { containerStatuses: [{ ready: true }, { ready: false }] } });
    expect(masked).toMatchObject({ ready: 1, total: 2 });
  });
});

describe('summarizePod', () => {
  it('explains containers by kind, with last termination, probes and resources', () => {
    const summary = PodSummarySchema.parse(summarizePod(crashing));
    expect(summary.containers.map((c) => `${c.kind}:${c.name}`)).toEqual(['init:migrate', 'sidecar:proxy', 'regular:app']);
    const app = summary.containers[2]!;
    expect(app.state).toEqual({ kind: 'waiting', reason: 'CrashLoopBackOff', message: 'back-off 40s' });
    expect(app.lastTermination).toMatchObject({ kind: 'terminated', exitCode: 137, reason: 'OOMKilled', finishedAt: '2026-03-01T10:01:09Z' });
    expect(app.probes).toEqual([{ kind: 'liveness', description: 'http GET :8080/healthz, every 5s, timeout 1s, fail after 3' }]);
    expect(app).toMatchObject({ requests: { cpu: '100m' }, limits: { memory: '256Mi' }, ports: ['http 8080/TCP'] });
    expect(summary.volumes).toEqual([{ name: 'cfg', kind: 'configMap', detail: 'api-config' }]);
  });
});

describe.runIf(hasSharedPods)('shared real pods', () => {
  const files = hasSharedPods ? readdirSync(sharedPodsDir).filter((f) => /^\d.*\.json$/.test(f)) : [];
  it.each(files)('%s projects to a valid row and summary', (file) => {
    const pod = JSON.parse(readFileSync(join(sharedPodsDir, file), 'utf8')) as PodTree;
    const row = PodRowSchema.parse(podRowFromTree(pod));
    const summary = PodSummarySchema.parse(summarizePod(pod));
    expect(row.uid).not.toBe('');
    expect(summary.containers.length).toBeGreaterThan(0);
  });
});
