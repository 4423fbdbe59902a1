import { describe, expect, it } from 'vitest';
import type { PodRow } from '../contract';
import { describePodChange } from './pod-change';

const row = (over: Partial<PodRow> = {}): PodRow => ({
  uid: 'u1',
  namespace: 'default',
  name: 'web-0',
  phase: 'Running',
  status: 'Running',
  ready: 1,
  total: 1,
  restarts: 0,
  createdAt: '2026-06-26T10:12:19Z',
  podIP: '10.0.0.5',
  node: 'worker-1',
  ownerKind: 'StatefulSet',
  ownerName: 'web',
  isStatic: false,
  labels: { app: 'web', tier: 'front' },
  deleting: false,
  ...over,
});

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
});
