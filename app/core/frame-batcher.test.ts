import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFrameBatcher } from './frame-batcher';

// The batcher's pace is its timer alone, so a fake clock makes these exact whatever the machine's load.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('createFrameBatcher', () => {
  it('delivers a burst as one batch after one frame, in order', () => {
    const batches: number[][] = [];
    const batcher = createFrameBatcher<number>((items) => batches.push(items), 16);
    for (let i = 0; i < 1000; i++) batcher.push(i);
    vi.advanceTimersByTime(15);
    expect(batches).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(batches).toHaveLength(1);
    expect(batches[0]).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    vi.advanceTimersByTime(100);
    expect(batches).toHaveLength(1);
  });

  it('keeps 1,000 events/s down to about one delivery per frame', () => {
    const batches: number[][] = [];
    const waited: number[] = [];
    const startedAt = Date.now();
    const batcher = createFrameBatcher<number>((items) => {
      batches.push(items);
      // Item i is pushed at millisecond i.
      waited.push(Date.now() - startedAt - items[0]!);
    }, 16);
    let n = 0;
    // 300 ms at one event per millisecond.
    for (let ms = 0; ms < 300; ms++) {
      batcher.push(n++);
      vi.advanceTimersByTime(1);
    }
    batcher.close();
    expect(batches.flat()).toEqual(Array.from({ length: n }, (_, i) => i));
    // 300 ms of events in 16 ms frames: ~19 deliveries, never one per event.
    expect(batches.length).toBeLessThanOrEqual(Math.ceil(300 / 16) + 2);
    expect(batches.length).toBeLessThan(n / 2);
    // And batching never holds an event back for more than one frame.
    expect(Math.max(...waited)).toBeLessThanOrEqual(16);
  });

  it('flushes what is pending on close and ignores later pushes', () => {
    const batches: string[][] = [];
    const batcher = createFrameBatcher<string>((items) => batches.push(items), 1000);
    batcher.push('a');
    batcher.close();
    // At once, not when the 1 s frame would have ended.
    expect(batches).toEqual([['a']]);
    batcher.push('b');
    vi.advanceTimersByTime(5000);
    expect(batches).toEqual([['a']]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
