import { describe, expect, it } from 'vitest';
import { createFrameBatcher } from './frame-batcher';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('createFrameBatcher', () => {
  it('delivers a burst as one batch per frame, in order', async () => {
    const batches: number[][] = [];
    const batcher = createFrameBatcher<number>((items) => batches.push(items), 16);
    for (let i = 0; i < 1000; i++) batcher.push(i);
    expect(batches).toHaveLength(0);
    await sleep(40);
    expect(batches).toHaveLength(1);
    expect(batches[0]).toEqual(Array.from({ length: 1000 }, (_, i) => i));
  });

  it('keeps 1,000 events/s down to about one delivery per frame', async () => {
    const batches: number[][] = [];
    const batcher = createFrameBatcher<number>((items) => batches.push(items), 16);
    const started = Date.now();
    let n = 0;
    while (Date.now() - started < 300) {
      batcher.push(n++);
      await sleep(1);
    }
    batcher.close();
    expect(batches.flat()).toEqual(Array.from({ length: n }, (_, i) => i));
    // 300 ms of events in 16 ms frames: ~19 deliveries, never one per event.
    expect(batches.length).toBeLessThanOrEqual(Math.ceil(300 / 16) + 2);
    expect(batches.length).toBeLessThan(n / 2);
  });

  it('flushes what is pending on close and ignores later pushes', async () => {
    const batches: string[][] = [];
    const batcher = createFrameBatcher<string>((items) => batches.push(items), 1000);
    batcher.push('a');
    batcher.close();
    batcher.push('b');
    await sleep(20);
    expect(batches).toEqual([['a']]);
  });
});
