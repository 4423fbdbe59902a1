import { describe, expect, it } from 'vitest';
import type { PodRow } from '../contract';
import { testRow } from '../contract/testing/test-row';
import { ROW_FIELD_SOURCES, unselectedFields } from '../pod/view/pod-field-sources';
import { describePodChange } from './pod-change';

const row = (over: Partial<PodRow> = {}): PodRow =>
  testRow({ uid: 'u1', name: 'web-0', podIP: '10.0.0.5', node: 'worker-1', createdAt: '2026-06-26T10:12:19Z', ownerKind: 'StatefulSet', ownerName: 'web', labels: { app: 'web', tier: 'front' }, ...over });

describe('describePodChange', () => {
  it('says what an operator watches for in one line', () => {
    expect(describePodChange(undefined, row({ status: 'Pending' }))).toBe('added (Pending)');
    expect(describePodChange(row(), row({ status: 'CrashLoopBackOff', ready: 0, restarts: 3 }))).toBe(
      'status Running → CrashLoopBackOff, ready 1/1 → 0/1, restarted (3 restarts)',
    );
    expect(describePodChange(row(), row({ deleting: true, status: 'Terminating' }))).toBe('terminating, status Running → Terminating');
  });

  it('names label edits instead of a bare "updated"', () => {
    expect(describePodChange(row(), row({ labels: { app: 'web', tier: 'back', canary: 'yes' } }))).toBe('label tier front → back, label canary=yes added');
    expect(describePodChange(row(), row({ labels: {} }))).toBe('label app removed, label tier removed');
    expect(describePodChange(row(), row({ labels: { a: '1', b: '2', c: '3' } }))).toBe('label a=1 added, label b=2 added, 3 more label changes');
  });

  it('falls back to "updated" for changes the row does not show', () => {
    expect(describePodChange(row(), row())).toBe('updated');
  });

  it('reports no change in what the field mask left out', () => {
    const hidden = new Set(unselectedFields(ROW_FIELD_SOURCES, ['metadata.name', 'metadata.namespace', 'status.phase']));
    expect(describePodChange(row(), row({ ready: 0, restarts: 4, podIP: '', labels: {}, node: 'worker-2' }), hidden)).toBe('updated');
    expect(describePodChange(row({ phase: 'Pending', status: 'Pending' }), row(), hidden)).toBe('status Pending → Running');
    expect(describePodChange(undefined, row(), new Set(unselectedFields(ROW_FIELD_SOURCES, ['metadata.name'])))).toBe('added');
  });
});
