import { describe, expect, it } from 'vitest';
import { formatAge } from './age';
import { announcedState, describeNodeState, staleText, stateCategory } from './node-state';

const t0 = Date.parse('2026-01-01T00:00:00Z');
const ago = (s: number) => formatAge('2026-01-01T00:00:00Z', t0 + s * 1000);

describe('formatAge', () => {
  it('reads like kubectl', () => {
    expect([ago(5), ago(200), ago(45 * 60), ago(5 * 3600 + 120), ago(30 * 3600), ago(3 * 86400 + 7200), ago(40 * 86400)]).toEqual([
      '5s', '3m20s', '45m', '5h2m', '30h', '3d2h', '40d',
    ]);
    expect(formatAge(null, t0)).toBe('—');
  });
});

describe('describeNodeState', () => {
  it('counts down to the next reconnect and keeps the cause', () => {
    expect(describeNodeState({ phase: 'reconnecting', attempt: 2, retryAt: t0 + 4200, cause: 'SSH connection lost' }, t0)).toEqual({
      tone: 'wait',
      title: 'Reconnecting in 5s',
      detail: 'SSH connection lost (attempt 2)',
    });
  });

  it('shows an error with its next step', () => {
    expect(describeNodeState({ phase: 'error', cause: 'Permission denied on the socket', nextStep: 'Enable sudo' }, t0)).toMatchObject({
      tone: 'bad',
      detail: 'Enable sudo',
    });
  });

  it('says a silent node is not live and its pods may be stale, for how long, and that it will reconnect', () => {
    const silent = { phase: 'silent', since: t0 - 60_000, silentSince: t0 - 8_000 } as const;
    expect(describeNodeState(silent, t0)).toMatchObject({ tone: 'wait', title: 'Not answering for 8s' });
    expect(describeNodeState(silent, t0).detail).toMatch(/the pods shown are as of then and may be stale\. Reconnecting if it stays silent\.$/);
    expect(staleText(silent)).toBe('stale: not answering');
    expect(announcedState(silent)).toBe('Not answering: the pods shown may be stale');
  });

  it('says a list is shown while the watch catches up, how far behind, and never that it is live', () => {
    const listed = { phase: 'catchingUp', watch: 'replaying', listedAt: t0 - 2_000, attempt: 1, behind: 12_345 } as const;
    expect(describeNodeState(listed, t0)).toMatchObject({ tone: 'busy', title: 'Catching up: 12,345 changes behind' });
    expect(describeNodeState(listed, t0).detail).toMatch(/^Showing the kubelet's pod list of .+ while the watch catches up; live once it has$/);
    expect(stateCategory(listed)).toBe('connecting');
    expect(staleText(listed)).toBe('stale: connecting');
    // Announced once, not with each new count.
    expect(announcedState(listed)).toBe("Catching up: showing the kubelet's pod list");
    const dropped = { phase: 'catchingUp', watch: 'dropped', listedAt: t0 - 2_000, attempt: 2, retryAt: t0 + 3_000, cause: 'watch client channel closed' } as const;
    expect(describeNodeState(dropped, t0)).toMatchObject({ tone: 'wait', title: 'Catching up' });
    expect(stateCategory(dropped)).toBe('reconnecting');
  });
});
