import type { PodRow } from '../pods';

/** A table row with sensible defaults, for unit tests of anything that shows rows. */
export function testRow(overrides: Partial<PodRow> & { uid: string }): PodRow {
  return {
    namespace: 'default',
    name: overrides.uid,
    phase: 'Running',
    status: 'Running',
    ready: 1,
    total: 1,
    restarts: 0,
    createdAt: '2026-01-01T00:00:00Z',
    podIP: '10.0.0.1',
    node: 'node-a',
    ownerKind: 'ReplicaSet',
    ownerName: 'web-1',
    isStatic: false,
    labels: {},
    deleting: false,
    ...overrides,
  };
}
