import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRelease } from './memory-release';

const MIB = 1 << 20;
const SETTLE_MS = 100;
/** Whatever the process's size: these tests are about when a collection runs, not whether it is worth it. */
const ANY_GROWTH = -Infinity;

const youngGeneration = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')!.space_size;

/** Pods' worth of small objects that live a while, as a first list leaves behind, then dropped. */
function takeInAndDrop(count: number): number {
  const held = [];
  for (let i = 0; i < count; i++) held.push({ uid: `uid-${i}`, digest: `digest-${i}-${'x'.repeat(40)}`, row: [`ns-${i % 50}`, `pod-${i}`, 'Running'] });
  return held.length;
}

/** A collector the test finishes by hand, counting its runs. */
function heldCollector() {
  const runs: (() => void)[] = [];
  return { runs, collect: () => new Promise<void>((done) => runs.push(done)) };
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('memory release', () => {
  it('gives a dropped pod set back, the young generation too, which an ordinary collection keeps at its size', async () => {
    const released: number[] = [];
    const release = createMemoryRelease({ growthBytes: ANY_GROWTH, settleMs: 0, released: (_, after) => released.push(after) });
    expect(takeInAndDrop(1_000_000)).toBe(1_000_000);
    const young = youngGeneration();
    const heap = getHeapStatistics().total_heap_size;
    release.afterLargeChange();
    while (released.length === 0) await new Promise((r) => setTimeout(r, 20));
    release.close();
    expect(youngGeneration()).toBeLessThan(young / 2);
    // The million objects took well over 100 MiB of heap.
    expect(heap - getHeapStatistics().total_heap_size).toBeGreaterThan(64 * MIB);
  });

  it('waits while more pod sets are on their way (nodes still opening), then collects', async () => {
    vi.useFakeTimers();
    const collector = heldCollector();
    let opening = true;
    const release = createMemoryRelease({ growthBytes: ANY_GROWTH, settleMs: SETTLE_MS, collect: collector.collect, busy: () => opening });
    release.afterLargeChange();
    await vi.advanceTimersByTimeAsync(SETTLE_MS * 10);
    expect(collector.runs).toHaveLength(0);
    opening = false;
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    expect(collector.runs).toHaveLength(1);
    collector.runs[0]!();
    release.close();
  });

  it('collects once for a burst of changes, after the last', async () => {
    vi.useFakeTimers();
    const collector = heldCollector();
    const release = createMemoryRelease({ growthBytes: ANY_GROWTH, settleMs: SETTLE_MS, collect: collector.collect });
    for (let i = 0; i < 5; i++) {
      release.afterLargeChange();
      await vi.advanceTimersByTimeAsync(SETTLE_MS / 2);
    }
    expect(collector.runs).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    expect(collector.runs).toHaveLength(1);
    collector.runs[0]!();
    await vi.advanceTimersByTimeAsync(SETTLE_MS * 10);
    expect(collector.runs).toHaveLength(1);
    release.close();
  });

  it('looks again after a collection at a change that came during it', async () => {
    vi.useFakeTimers();
    const collector = heldCollector();
    const release = createMemoryRelease({ growthBytes: ANY_GROWTH, settleMs: SETTLE_MS, collect: collector.collect });
    release.afterLargeChange();
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    release.afterLargeChange();
    await vi.advanceTimersByTimeAsync(SETTLE_MS * 10);
    expect(collector.runs).toHaveLength(1);
    collector.runs[0]!();
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    expect(collector.runs).toHaveLength(2);
    release.close();
  });

  it('leaves a process that has not grown alone, and does nothing once closed', async () => {
    vi.useFakeTimers();
    const collector = heldCollector();
    const small = createMemoryRelease({ growthBytes: 1024 * MIB, settleMs: SETTLE_MS, collect: collector.collect });
    small.afterLargeChange();
    const closed = createMemoryRelease({ growthBytes: ANY_GROWTH, settleMs: SETTLE_MS, collect: collector.collect });
    closed.afterLargeChange();
    closed.close();
    closed.afterLargeChange();
    await vi.advanceTimersByTimeAsync(SETTLE_MS * 10);
    expect(collector.runs).toHaveLength(0);
    small.close();
  });

  it('collects after a large set was let go of (nodes switched to rows only), though nothing grew', async () => {
    vi.useFakeTimers();
    const collector = heldCollector();
    const release = createMemoryRelease({ growthBytes: 1024 * MIB, settleMs: SETTLE_MS, collect: collector.collect });
    release.afterLargeChange(true);
    await vi.advanceTimersByTimeAsync(SETTLE_MS * 2);
    expect(collector.runs).toHaveLength(1);
    collector.runs[0]!();
    await vi.advanceTimersByTimeAsync(0);
    // Once: the next change that grew too little is left alone again.
    release.afterLargeChange();
    await vi.advanceTimersByTimeAsync(SETTLE_MS * 2);
    expect(collector.runs).toHaveLength(1);
    release.close();
  });

  it('says once that memory cannot be given back here, and stops trying', async () => {
    vi.useFakeTimers();
    const said = vi.spyOn(console, 'error').mockImplementation(() => {});
    let tries = 0;
    const release = createMemoryRelease({
      growthBytes: ANY_GROWTH,
      settleMs: SETTLE_MS,
      collect: () => {
        tries++;
        return Promise.reject(new Error('Inspector is not available'));
      },
    });
    for (let i = 0; i < 3; i++) {
      release.afterLargeChange();
      await vi.advanceTimersByTimeAsync(SETTLE_MS * 2);
    }
    expect(tries).toBe(1);
    expect(said).toHaveBeenCalledTimes(1);
    expect(String(said.mock.calls[0]![0])).toMatch(/memory is not given back.*Inspector is not available/);
    release.close();
  });
});
