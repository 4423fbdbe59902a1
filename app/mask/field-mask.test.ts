import { describe, expect, it } from 'vitest';
import { decodePod } from '../pod/decode';
import { encodePod } from '../pod/encode';
import { podToKubectlJson } from '../pod/kubectl-json';
import type { PodTree } from '../pod/pod-tree';
import { hasSharedPods, loadSharedPods } from '../testing/shared-fixtures';
import { applyFieldMask, FieldMaskError, fieldMaskCompletions, formatFieldMask, parseFieldMask } from './field-mask';

/** The error parseFieldMask throws for `text`, checked to point at its segment. */
function maskError(text: string): FieldMaskError {
  try {
    parseFieldMask(text);
  } catch (e) {
    expect(e).toBeInstanceOf(FieldMaskError);
    const error = e as FieldMaskError;
    expect(text.slice(error.position).startsWith(error.segment)).toBe(true);
    return error;
  }
  throw new Error(`expected "${text}" to be rejected`);
}

/** A small pod with lists, inline volume sources, maps, pointers, times and managed fields. */
function webPod(): PodTree {
  return {
    metadata: {
      name: 'web-7d4b9',
      namespace: 'shop',
      uid: '5f0c1d2e-0000-4000-8000-000000000001',
      labels: { app: 'web', tier: 'front' },
      annotations: { 'example.com/owner': 'team-a' },
      creationTimestamp: '2026-06-26T10:12:19Z',
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d4b', uid: 'rs-1', controller: true }],
      managedFields: [
        { manager: 'kubelet', operation: 'Update', apiVersion: 'v1', time: '2026-06-26T10:12:25Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:status': { 'f:phase': {} } }, subresource: 'status' },
      ],
    },
    spec: {
      containers: [
        {
          name: 'web',
          image: 'nginx:1.27',
          command: ['nginx', '-g', 'daemon off;'],
          ports: [{ name: 'http', containerPort: 80, protocol: 'TCP' }],
          resources: { requests: { cpu: '100m', memory: '128Mi' } },
          readinessProbe: { httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP' }, periodSeconds: 5 },
          securityContext: { runAsNonRoot: true },
        },
        { name: 'envoy', image: 'envoyproxy/envoy:v1.30', resources: {} },
      ],
      volumes: [
        { name: 'logs', hostPath: { path: '/var/log/web', type: 'DirectoryOrCreate' } },
        { name: 'conf', configMap: { name: 'web-conf', defaultMode: 420 } },
      ],
      nodeName: 'node-a',
      priority: 0,
      securityContext: { fsGroup: 2000 },
    },
    status: {
      phase: 'Running',
      podIP: '10.244.1.7',
      startTime: '2026-06-26T10:12:20Z',
      conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: '2026-06-26T10:12:30Z' }],
      containerStatuses: [
        { name: 'web', ready: true, restartCount: 0, image: 'nginx:1.27', imageID: '', started: true, state: { running: { startedAt: '2026-06-26T10:12:24Z' } } },
        { name: 'envoy', ready: false, restartCount: 3, image: 'envoyproxy/envoy:v1.30', imageID: '', state: { waiting: { reason: 'CrashLoopBackOff' } } },
      ],
    },
  };
}

const roundTripMasks = [
  'metadata.name, spec.containers.image',
  'status.containerStatuses.ready, status.phase',
  'spec.volumes.hostPath.path',
  'metadata.labels, metadata.managedFields.fieldsV1',
  'spec.securityContext.runAsUser, spec.containers.securityContext.runAsNonRoot',
  'spec.containers.readinessProbe.httpGet.port, status.startTime, status.conditions.lastProbeTime',
  'metadata, status',
];

/** What a client computes locally equals what the simulator sends: the masked pod, encoded and decoded. */
function expectSameOverTheWire(pod: PodTree, mask: string): void {
  const masked = applyFieldMask(pod, parseFieldMask(mask));
  const options = { showManagedFields: true };
  expect(podToKubectlJson(decodePod(encodePod(masked)).pod, options), mask).toBe(podToKubectlJson(masked, options));
}

describe('parseFieldMask', () => {
  it('tolerates whitespace and empty entries, collapses duplicates and paths under a selected path', () => {
    const mask = parseFieldMask(' status.phase ,metadata.name,, spec.containers.image,status.phase, spec.containers ,');
    expect(mask.paths).toEqual(['metadata.name', 'spec.containers', 'status.phase']);
    expect(formatFieldMask(mask)).toBe('metadata.name,spec.containers,status.phase');
    expect(parseFieldMask('spec.containers.image, spec').paths).toEqual(['spec']);
  });

  it('gives one canonical text whatever the order, and the canonical text parses to itself', () => {
    const a = parseFieldMask('status.podIP, metadata.namespace, metadata.name');
    const b = parseFieldMask('metadata.name,status.podIP,metadata.namespace');
    expect(formatFieldMask(a)).toBe(formatFieldMask(b));
    expect(parseFieldMask(formatFieldMask(a)).paths).toEqual(a.paths);
  });

  it('walks through lists, inline embeds, maps and special types as the JSON does', () => {
    expect(parseFieldMask('spec.containers.image').paths).toEqual(['spec.containers.image']);
    expect(parseFieldMask('spec.volumes.hostPath.path').paths).toEqual(['spec.volumes.hostPath.path']);
    expect(parseFieldMask('spec.containers.livenessProbe.exec.command').paths).toHaveLength(1);
    expect(parseFieldMask('spec.containers.env.valueFrom.configMapKeyRef.name').paths).toHaveLength(1);
    expect(parseFieldMask('metadata.labels').paths).toEqual(['metadata.labels']);
    expect(parseFieldMask('status.startTime, spec.containers.resources.limits').paths).toHaveLength(2);
    expect(parseFieldMask('metadata.managedFields.fieldsV1').paths).toEqual(['metadata.managedFields.fieldsV1']);
  });

  it('suggests the closest field names for a typo, ignoring case', () => {
    const e = maskError('metadata.name, spec.contaners.image');
    expect(e.message).toContain('unknown field "contaners" in spec; did you mean "containers"?');
    expect(e).toMatchObject({ path: 'spec.contaners.image', segment: 'contaners', position: 20 });
    expect(maskError('status.PodIP').message).toContain('did you mean "podIP"?');
    expect(maskError('spec.containers.imag').message).toContain('did you mean "image"?');
    expect(maskError('spec.contianers').message).toContain('did you mean "containers"?');
    expect(maskError('status.hostip').message).toContain('did you mean "hostIP"?');
    expect(maskError('spec.volumes.hostpth').message).toContain('did you mean "hostPath"?');
  });

  it('points to the deeper field when a name is given at the wrong level', () => {
    expect(maskError('phase').message).toContain('unknown field "phase" in the pod; did you mean "status.phase"?');
    expect(maskError('spec.image').message).toContain('"spec.containers.image"');
  });

  it('lists the valid names when nothing is close', () => {
    const e = maskError('status.zzzzzzzz');
    expect(e.message).toContain('unknown field "zzzzzzzz" in status; valid fields are: ');
    expect(e.message).toContain('containerStatuses, ');
    expect(e.message).toContain('phase, ');
    expect(maskError('apiVersion').message).toContain('"apiVersion" is not in the pod bytes (printing adds it), so it cannot be selected; valid fields are: metadata, spec, status');
  });

  it('selects maps whole only', () => {
    const e = maskError('metadata.labels.app');
    expect(e).toMatchObject({ segment: 'app', position: 16 });
    expect(e.message).toContain('"metadata.labels" is a map, which can only be selected whole');
    expect(e.message).toContain('use "metadata.labels"');
    expect(maskError('spec.containers.resources.limits.cpu').message).toContain('is a map');
  });

  it('treats times, quantities, int-or-strings, FieldsV1 and scalars as leaves', () => {
    expect(maskError('status.startTime.seconds')).toMatchObject({ segment: 'seconds', position: 17 });
    expect(maskError('status.startTime.seconds').message).toContain('"status.startTime" is a time, a single value: nothing can follow it');
    expect(maskError('spec.overhead.cpu.string').message).toContain('is a map');
    expect(maskError('spec.containers.ports.containerPort.x').message).toContain('is a number, a single value');
    expect(maskError('spec.containers.readinessProbe.httpGet.port.intVal').message).toContain('is an int-or-string');
    expect(maskError('metadata.managedFields.fieldsV1.f:metadata').message).toContain('FieldsV1');
    expect(maskError('status.phase.value').message).toContain('"status.phase" is a string, a single value');
    expect(maskError('spec.containers.command.0').message).toContain('is a list of strings, which is selected whole');
  });

  it('explains list indexes, empty segments and spaces', () => {
    const index = maskError('spec.containers[0].image');
    expect(index.message).toContain('list indexes are not supported');
    expect(index.message).toContain('"spec.containers.image"');
    expect(maskError('spec..containers')).toMatchObject({ segment: '', position: 5 });
    expect(maskError('spec..containers').message).toContain('empty field name after "spec"');
    expect(maskError('status.')).toMatchObject({ segment: '', position: 7 });
    expect(maskError('.status').message).toContain('empty field name; separate');
    expect(maskError('spec. containers')).toMatchObject({ segment: ' containers', position: 5 });
  });

  it('keeps the message short when a pasted path is huge', () => {
    const e = maskError(`spec.${'x'.repeat(9_000)}`);
    expect(e.segment).toHaveLength(9_000);
    expect(e.message.length).toBeLessThan(1_000);
    expect(e.message).toContain('valid fields are: activeDeadlineSeconds');
  });

  it('rejects a mask without paths', () => {
    for (const text of ['', '   ', ' , ,']) {
      const e = maskError(text);
      expect(e.message).toContain('the field mask has no paths');
      expect(e.position).toBe(0);
    }
  });
});

describe('fieldMaskCompletions', () => {
  it('offers the next field names of the last path, sorted, matching the typed start in any case', () => {
    expect(fieldMaskCompletions('')).toEqual(['metadata', 'spec', 'status']);
    expect(fieldMaskCompletions('spec.cont')).toEqual(['containers']);
    expect(fieldMaskCompletions('metadata.name, status.pod')).toEqual(['podIP', 'podIPs']);
    expect(fieldMaskCompletions('status.containerStatuses.Re')).toEqual(['ready', 'resources', 'restartCount']);
    expect(fieldMaskCompletions('spec.volumes.host')).toEqual(['hostPath']);
    const all = fieldMaskCompletions('status.');
    expect(all).toContain('phase');
    expect(all).toEqual([...all].sort());
  });

  it('offers nothing after a map, a leaf or an unknown field', () => {
    expect(fieldMaskCompletions('metadata.labels.')).toEqual([]);
    expect(fieldMaskCompletions('status.startTime.')).toEqual([]);
    expect(fieldMaskCompletions('spec.contaners.')).toEqual([]);
    expect(fieldMaskCompletions('spec.zz')).toEqual([]);
  });
});

describe('applyFieldMask', () => {
  it('keeps only the selected fields, through every element of a list', () => {
    const masked = applyFieldMask(webPod(), parseFieldMask('metadata.name, spec.containers.image'));
    expect(masked).toEqual({
      metadata: { name: 'web-7d4b9' },
      spec: { containers: [{ image: 'nginx:1.27' }, { image: 'envoyproxy/envoy:v1.30' }] },
    });
  });

  it('prints the Go zero values of cleared non-pointer fields, as a Go server masked pod does', () => {
    const masked = applyFieldMask(webPod(), parseFieldMask('metadata.name, spec.containers.image'));
    const element = (image: string) => ['            {', `                "image": "${image}",`, '                "name": "",', '                "resources": {}', '            }'];
    expect(podToKubectlJson(masked)).toBe(
      [
        '{',
        '    "apiVersion": "v1",',
        '    "kind": "Pod",',
        '    "metadata": {',
        '        "name": "web-7d4b9"',
        '    },',
        '    "spec": {',
        '        "containers": [',
        ...element('nginx:1.27').map((l, i, all) => (i === all.length - 1 ? `${l},` : l)),
        ...element('envoyproxy/envoy:v1.30'),
        '        ]',
        '    },',
        '    "status": {}',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('keeps selected lists, maps and messages whole, and selects inline volume sources', () => {
    const pod = webPod();
    const masked = applyFieldMask(pod, parseFieldMask('metadata.labels, spec.containers.readinessProbe, spec.volumes.hostPath.path, status.conditions'));
    expect(masked.metadata).toEqual({ labels: { app: 'web', tier: 'front' } });
    expect((masked.spec as any).containers).toEqual([{ readinessProbe: (pod.spec as any).containers[0].readinessProbe }, {}]);
    expect((masked.spec as any).volumes).toEqual([{ hostPath: { path: '/var/log/web' } }, {}]);
    expect((masked.status as any).conditions).toEqual((pod.status as any).conditions);
  });

  it('creates nothing: absent fields stay absent, a set message with nothing selected stays as {}', () => {
    const masked = applyFieldMask(webPod(), parseFieldMask('spec.securityContext.runAsUser, spec.containers.securityContext.privileged, status.reason'));
    expect(masked).toEqual({ spec: { securityContext: {}, containers: [{ securityContext: {} }, {}] }, status: {} });
  });

  it('keeps special values and present zero values as they are', () => {
    const masked = applyFieldMask(webPod(), parseFieldMask('spec.priority, status.startTime, status.conditions.lastProbeTime, metadata.managedFields.fieldsV1'));
    expect(masked).toEqual({
      metadata: { managedFields: [{ fieldsV1: { 'f:status': { 'f:phase': {} } } }] },
      spec: { priority: 0 },
      status: { startTime: '2026-06-26T10:12:20Z', conditions: [{ lastProbeTime: null }] },
    });
  });

  it('never modifies its input and shares nothing with it', () => {
    const pod = webPod();
    const masked = applyFieldMask(pod, parseFieldMask('metadata.labels, spec.containers, status.containerStatuses.state'));
    expect(pod).toEqual(webPod());
    (masked.metadata as any).labels.app = 'changed';
    (masked.spec as any).containers[0].command.push('--changed');
    (masked.status as any).containerStatuses[0].state.running.startedAt = null;
    expect(pod).toEqual(webPod());
  });

  it('keeps map keys that are not plain identifiers, __proto__ included', () => {
    const pod: PodTree = { metadata: { name: 'odd', labels: JSON.parse('{"__proto__": "x", "a.b/c": "d"}') } };
    const labels = applyFieldMask(pod, parseFieldMask('metadata.labels')).metadata as any;
    expect(Object.keys(labels.labels)).toEqual(['__proto__', 'a.b/c']);
    expect(Object.getPrototypeOf(labels.labels)).toBe(Object.prototype);
  });

  it('is idempotent, and keeps the whole pod when metadata, spec and status are selected', () => {
    const pod = webPod();
    const mask = parseFieldMask('status.containerStatuses.ready, spec.volumes.configMap');
    expect(applyFieldMask(applyFieldMask(pod, mask), mask)).toEqual(applyFieldMask(pod, mask));
    expect(applyFieldMask(pod, parseFieldMask('metadata,spec,status'))).toEqual(pod);
  });

  it('sends over the wire exactly what the client computes locally (hand-made pod)', () => {
    for (const mask of roundTripMasks) expectSameOverTheWire(webPod(), mask);
  });

  it.runIf(hasSharedPods)('sends over the wire exactly what the client computes locally (shared real pods)', () => {
    const fixtures = loadSharedPods();
    expect(fixtures.length).toBeGreaterThan(0);
    for (const fixture of fixtures) {
      const pod = decodePod(fixture.pb, fixture.name).pod;
      for (const mask of roundTripMasks) expectSameOverTheWire(pod, mask);
      // Selecting everything changes nothing: the printed pod is still the one kubectl printed.
      expect(podToKubectlJson(applyFieldMask(pod, parseFieldMask('metadata, spec, status')), { showManagedFields: true })).toBe(fixture.jsonWithManagedFields);
    }
  });
});
