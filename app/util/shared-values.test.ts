import { describe, expect, it } from 'vitest';
import { SharedValues } from './shared-values';

describe('SharedValues', () => {
  it('hands back the value first kept under a key, so equal values are held once', () => {
    const shared = new SharedValues();
    const first = { image: 'nginx:1.27' };
    expect(shared.share('nginx', first)).toBe(first);
    expect(shared.share('nginx', { image: 'nginx:1.27' })).toBe(first);
    expect(shared.string('kube-system')).toBe('kube-system');
  });

  it('holds no more values than its limit, and no more key text than its limit, starting afresh past either', () => {
    const byCount = new SharedValues(100);
    for (let i = 0; i < 1000; i++) {
      byCount.share(`k${i % 250}`, { i });
      expect(byCount.size).toBeLessThanOrEqual(100);
    }
    const bySize = new SharedValues(1000, 100);
    const long = 'x'.repeat(40);
    const kept = { n: 1 };
    bySize.share(`a${long}`, kept);
    bySize.share(`b${long}`, {});
    expect(bySize.share(`a${long}`, {})).toBe(kept);
    // A third 41-character key passes 100 characters: what was kept is let go.
    bySize.share(`c${long}`, {});
    expect(bySize.size).toBe(1);
    expect(bySize.share(`a${long}`, {})).not.toBe(kept);
  });
});
