import { describe, expect, it } from 'vitest';
import type { PodTree } from '../pod/pod-tree';
import { fleetPodTable } from './fleet-pods-output';

const pod = (namespace: string, name: string): PodTree => ({
  metadata: { namespace, name, creationTimestamp: '2026-01-01T00:00:00Z' },
  spec: { nodeName: 'w' },
  status: { phase: 'Running', podIP: '10.0.0.1' },
});
const now = Date.parse('2026-01-02T00:00:00Z');
const results = [
  { id: 'worker-1', pods: [pod('a', 'x')], asOf: now },
  { id: 'worker-2', error: new Error('down') },
  { id: 'worker-3', pods: [pod('b', 'y')], asOf: now },
];
const rows = (text: string) => text.split('\n').map((l) => l.split(/\s{3,}/));

describe('the table of several sources', () => {
  it('puts NODE before the columns -o asks for: kubectl-like, wide, or custom', () => {
    expect(rows(fleetPodTable(results))).toEqual([
      ['NODE', 'NAMESPACE', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'],
      ['worker-1', 'a', 'x', '0/0', 'Running', '0', '24h'],
      ['worker-3', 'b', 'y', '0/0', 'Running', '0', '24h'],
    ]);
    expect(rows(fleetPodTable(results, 'wide', { namespaceColumn: false }))[0]).toEqual(['NODE', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES']);
    expect(rows(fleetPodTable(results, 'custom-columns=IP:.status.podIP', { namespaceColumn: true }))).toEqual([
      ['NODE', 'IP'],
      ['worker-1', '10.0.0.1'],
      ['worker-3', '10.0.0.1'],
    ]);
  });

  it('keeps the header when no source answered', () => {
    expect(fleetPodTable([{ id: 'w', error: new Error('down') }], 'custom-columns=IP:.status.podIP')).toBe('NODE   IP');
  });
});
