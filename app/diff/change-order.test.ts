import { describe, expect, it } from 'vitest';
import { formatPath } from './diff-path';
import { diffPod, shownChanges } from './diff-pods';
import { orderChanges } from './change-order';

describe('orderChanges', () => {
  it('puts spec and readiness first and timestamps last, the document order within each', () => {
    const left = {
      metadata: { name: 'api', uid: 'u-1', resourceVersion: '10', labels: { app: 'api' } },
      spec: { containers: [{ name: 'app', image: 'app:1' }] },
      status: {
        phase: 'Running',
        conditions: [
          { type: 'PodScheduled', status: 'True' },
          { type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' },
        ],
        containerStatuses: [{ name: 'app', ready: true, restartCount: 0, state: { running: { startedAt: '2026-01-01T00:00:00Z' } } }],
      },
    };
    const right = structuredClone(left);
    right.metadata.labels.app = 'api-2';
    right.spec.containers[0]!.image = 'app:2';
    right.status.conditions[1]!.status = 'False';
    right.status.conditions[1]!.lastTransitionTime = '2026-01-01T00:05:00Z';
    right.status.containerStatuses[0]!.ready = false;
    right.status.containerStatuses[0]!.restartCount = 1;
    right.status.containerStatuses[0]!.state.running.startedAt = '2026-01-01T00:05:00Z';
    const paths = orderChanges(shownChanges(diffPod(left, right))).map((c) => formatPath(c.path));
    expect(paths).toEqual([
      'spec.containers[name=app].image',
      'status.conditions[type=Ready].status',
      'status.containerStatuses[name=app].ready',
      'metadata.labels.app',
      'status.containerStatuses[name=app].restartCount',
      'status.conditions[type=Ready].lastTransitionTime',
      'status.containerStatuses[name=app].state.running.startedAt',
    ]);
  });
});
