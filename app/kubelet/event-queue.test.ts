import { describe, expect, it } from 'vitest';
import { EventQueue } from './event-queue';

/** Work that holds the thread, as decoding a pod does. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // spinning on purpose
  }
}

describe('EventQueue', () => {
  it('hands the event loop back while a backlog is worked through, so the socket is still read meanwhile', async () => {
    const queue = new EventQueue<number>();
    for (let i = 0; i < 10; i++) queue.push(i);
    queue.end();
    let consumed = 0;
    // A socket read is a macrotask like this one: it must get its turn before the backlog is done.
    let readAfter: number | undefined;
    setImmediate(() => (readAfter = consumed));
    const seen: number[] = [];
    for await (const item of queue) {
      busy(5);
      seen.push(item);
      consumed++;
    }
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(readAfter).toBeDefined();
    expect(readAfter!).toBeLessThan(10);
  });

  it('ends with the error it was ended with, after what was queued', async () => {
    const queue = new EventQueue<string>();
    queue.push('a');
    queue.end(new Error('dropped'));
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const item of queue) seen.push(item);
      })(),
    ).rejects.toThrow('dropped');
    expect(seen).toEqual(['a']);
  });
});
