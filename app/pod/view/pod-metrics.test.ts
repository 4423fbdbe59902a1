import { describe, expect, it } from 'vitest';
import type { NodeMetrics } from '../../contract/node-metrics';
import { testRow } from '../../contract/testing/test-row';
import { matchesFilter, parseFilter } from './filter-language';
import { sortRows } from '../../../renderer/filter/sort-rows';
import { formatBytes, formatCpu, formatProbes, podMetricsLookup, summarizeProbes } from './pod-metrics';

const rows = [
  testRow({ uid: 'web', namespace: 'shop', name: 'web-1' }),
  testRow({ uid: 'db', namespace: 'shop', name: 'db-0' }),
  testRow({ uid: 'idle', namespace: 'shop', name: 'idle-0' }),
  testRow({ uid: 'new', namespace: 'shop', name: 'new-0' }),
];

const counts = (last: 'successful' | 'failed' | undefined) => ({ successful: 3, failed: 1, unknown: 0, ...(last ? { last } : {}) });
const metrics: NodeMetrics = {
  at: 1,
  usage: {
    available: true,
    node: { cpuCores: 2, memoryBytes: 2 ** 32 },
    pods: {
      web: { cpuCores: 0.25, memoryBytes: 300 * 2 ** 20, containers: { app: { cpuCores: 0.25 } } },
      db: { cpuCores: 1.5, memoryBytes: 2 * 2 ** 30, containers: {} },
      // The kubelet sampled no CPU for this one: absent, not zero.
      idle: { memoryBytes: 2 ** 20, containers: {} },
    },
  },
  probes: { available: true, pods: { web: { app: { readiness: counts('successful'), liveness: counts('successful') } }, db: { db: { liveness: counts('failed') } }, idle: { x: { startup: counts(undefined) } } } },
  resources: { available: true, pods: { 'shop/db-0': { db: { devices: [{ resource: 'nvidia.com/gpu', ids: ['GPU-1'], numaNodes: [0] }], cpuIds: [2, 3], memory: [] } } }, node: [] },
  runtime: { available: false, reason: 'forbidden' },
};
const of = podMetricsLookup(metrics, false);

describe('pod metrics in the table', () => {
  it('sorts by CPU and memory biggest first, with pods the kubelet gave no value for last either way', () => {
    expect(sortRows(rows, { key: 'cpu', descending: true }, of).map((r) => r.uid)).toEqual(['db', 'web', 'idle', 'new']);
    expect(sortRows(rows, { key: 'cpu', descending: false }, of).map((r) => r.uid)).toEqual(['web', 'db', 'idle', 'new']);
    expect(sortRows(rows, { key: 'memory', descending: true }, of).map((r) => r.uid)).toEqual(['db', 'web', 'idle', 'new']);
  });

  it('sorts failing probes first and filters on the last results', () => {
    expect(sortRows(rows, { key: 'probes', descending: true }, of).map((r) => r.uid)).toEqual(['db', 'idle', 'web', 'new']);
    const pick = (text: string) => rows.filter((r) => matchesFilter(parseFilter(text), r, of)).map((r) => r.uid);
    expect(pick('probe:failed')).toEqual(['db']);
    expect(pick('probe:ok')).toEqual(['web']);
    expect(pick('probe:unknown')).toEqual(['idle']);
    expect(pick('probe:none')).toEqual(['new']);
    expect(pick('-probe:failed')).toEqual(['web', 'idle', 'new']);
    expect(parseFilter('probe:great').errors[0]).toContain('probe:failed');
  });

  it('says why a value is missing instead of showing a zero', () => {
    const web = of(rows[0]!);
    expect('value' in web.usage && formatCpu(web.usage.value.cpuCores)).toBe('250m');
    expect('value' in web.usage && formatBytes(web.usage.value.memoryBytes)).toBe('300Mi');
    const idle = of(rows[2]!);
    expect('value' in idle.usage && formatCpu(idle.usage.value.cpuCores)).toBe('—');
    expect(of(rows[3]!).usage).toEqual({ absent: expect.stringContaining('no usage') });
    expect(of(rows[1]!).resources).toEqual({ value: metrics.resources.available && metrics.resources.pods['shop/db-0'] });

    const podsApi = podMetricsLookup({ ...metrics, usage: { available: false, reason: 'Read through the Pods API' } }, false)(rows[0]!);
    expect(podsApi.usage).toEqual({ absent: 'Read through the Pods API' });
    expect(podMetricsLookup(null, true)(rows[0]!).probes).toEqual({ absent: expect.stringContaining('file') });
    expect(podMetricsLookup(undefined, false)(rows[0]!).usage).toEqual({ absent: expect.stringContaining('Not read yet') });
    // Without metrics, nothing sorts as if it used no CPU: the order falls back to namespace and name.
    expect(sortRows(rows, { key: 'cpu', descending: true }, podMetricsLookup(undefined, false)).map((r) => r.uid)).toEqual(['db', 'idle', 'new', 'web']);
  });

  it('summarizes probes by their last result', () => {
    expect(formatProbes(summarizeProbes({ a: { readiness: counts('failed'), liveness: counts('successful') }, b: { startup: counts(undefined) } }))).toBe('1 failed · 1 ok · 1 ?');
    expect(formatProbes(summarizeProbes({}))).toBe('none');
    expect(formatBytes(2.5 * 2 ** 30)).toBe('2.5Gi');
  });
});
