import { describe, expect, it } from 'vitest';
import { decodePod } from './decode';
import { encodePod, PodEncodeError } from './encode';
import type { PodTree } from './pod-tree';
import { podToKubectlJson } from './kubectl-json';
import { webPodBytes, webPodJson } from './testdata/handmade-pods';

describe('encodePod', () => {
  it('is stable: what it wrote decodes and re-encodes to the same bytes, printing the same JSON', () => {
    // (Byte equality with Go's own output is proven on the real pods in conformance.test.ts.)
    const once = encodePod(decodePod(webPodBytes()).pod);
    expect(Buffer.from(encodePod(decodePod(once).pod)).equals(Buffer.from(once))).toBe(true);
    expect(podToKubectlJson(decodePod(once).pod)).toBe(webPodJson);
  });

  it('round-trips a tree with int64 beyond 2^53, inline volumes, quantities, int-or-string ports and null times', () => {
    const pod: PodTree = {
      metadata: { name: 'p', namespace: 'ns', uid: 'u', generation: 2n ** 62n + 3n, creationTimestamp: '2026-01-02T03:04:05Z', labels: { app: 'x' } },
      spec: {
        containers: [
          {
            name: 'c',
            image: 'busybox',
            resources: { limits: { cpu: '250m', memory: '64Mi' } },
            readinessProbe: { httpGet: { path: '/healthz', port: 'http' }, periodSeconds: 5 },
            livenessProbe: { tcpSocket: { port: 8080 } },
          },
        ],
        volumes: [{ name: 'd', emptyDir: { sizeLimit: '1Gi' } }],
        priority: 0,
      },
      status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: '2026-01-02T03:04:06Z' }] },
    };
    const back = decodePod(encodePod(pod)).pod as any;
    expect(back.metadata.generation).toBe(2n ** 62n + 3n);
    expect(back.metadata.creationTimestamp).toBe('2026-01-02T03:04:05Z');
    expect(back.spec.containers[0].resources.limits).toEqual({ cpu: '250m', memory: '64Mi' });
    expect(back.spec.containers[0].readinessProbe.httpGet.port).toBe('http');
    expect(back.spec.containers[0].livenessProbe.tcpSocket.port).toBe(8080);
    expect(back.spec.volumes).toEqual([{ name: 'd', emptyDir: { medium: '', sizeLimit: '1Gi' } }]);
    expect(back.spec.priority).toBe(0);
    expect(back.status.conditions[0].lastProbeTime).toBeNull();
    // Go writes non-pointer zero values, so they come back present.
    expect(back.metadata.selfLink).toBe('');
  });

  it('names the field when a tree holds a value of the wrong type', () => {
    const bad: PodTree = { metadata: { name: 7 } };
    expect(() => encodePod(bad)).toThrowError(PodEncodeError);
    expect(() => encodePod(bad)).toThrowError('cannot encode pod field metadata.name: expected a string, got number');
    expect(() => encodePod({ metadata: { creationTimestamp: 'yesterday' } })).toThrowError(/metadata\.creationTimestamp: "yesterday" is not an RFC 3339 time/);
  });
});
