import { describe, expect, it } from 'vitest';
import { naturalCompare } from './natural-compare';

describe("kubectl's natural order of text (--sort-by)", () => {
  it('orders runs of digits by value, the rest byte by byte', () => {
    expect(['pod-10', 'pod-9', 'pod-1', 'Pod-2', 'pod-01', 'pod-a'].sort(naturalCompare)).toEqual(['Pod-2', 'pod-1', 'pod-01', 'pod-9', 'pod-10', 'pod-a']);
  });

  it('orders RFC 3339 times in time order', () => {
    expect(['2026-01-02T00:00:00Z', '2025-12-31T23:59:59Z'].sort(naturalCompare)).toEqual(['2025-12-31T23:59:59Z', '2026-01-02T00:00:00Z']);
  });
});
