import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { batchedPipe } from './batched-pipe';

/** A writable that records each write call it gets (single or vectored) and can be made slow. */
function recorder({ highWaterMark = 1 << 20, delayMs = 0 } = {}) {
  const calls: Buffer[][] = [];
  const sink = new Writable({
    highWaterMark,
    write(chunk: Buffer, _enc, cb) {
      calls.push([chunk]);
      // A socket with room completes at once, so only corking can gather writes: as fast as one.
      if (delayMs) setTimeout(cb, delayMs);
      else cb();
    },
    writev(chunks, cb) {
      calls.push(chunks.map((c) => c.chunk as Buffer));
      if (delayMs) setTimeout(cb, delayMs);
      else cb();
    },
  });
  const bytes = () => Buffer.concat(calls.flat());
  return { sink, calls, bytes };
}

/** The first outcome reported, and how many times `done` was called (it must be once). */
const settled = () => {
  let resolve!: (err: NodeJS.ErrnoException | null) => void;
  const promise = new Promise<NodeJS.ErrnoException | null>((r) => (resolve = r));
  const outcome = { promise, calls: 0, done: (err: NodeJS.ErrnoException | null) => (outcome.calls++, resolve(err)) };
  return outcome;
};

describe('batchedPipe', () => {
  it('writes what arrived in one loop turn as one write, in order, then ends', async () => {
    const from = new PassThrough();
    const { sink, calls, bytes } = recorder();
    const end = settled();
    batchedPipe(from, sink, end.done);
    const packets = Array.from({ length: 50 }, (_, i) => Buffer.from(`event-${i};`));
    for (const p of packets) from.write(p);
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(calls).toHaveLength(1);
    expect(calls[0]).toHaveLength(50);
    from.end(Buffer.from('last'));
    expect(await end.promise).toBeNull();
    expect(sink.writableFinished).toBe(true);
    expect(bytes().toString()).toBe(packets.join('') + 'last');
  });

  it('holds the source back while the destination is full, and loses nothing', async () => {
    const from = new PassThrough({ highWaterMark: 1024 });
    const { sink, bytes } = recorder({ highWaterMark: 4096, delayMs: 2 });
    const end = settled();
    let pauses = 0;
    const pause = from.pause.bind(from);
    from.pause = () => (pauses++, pause());
    batchedPipe(from, sink, end.done);
    const sent: Buffer[] = [];
    for (let i = 0; i < 200; i++) {
      const chunk = Buffer.alloc(1024, i % 251);
      sent.push(chunk);
      // Wait as a well-behaved producer does when the source stops taking data.
      if (!from.write(chunk)) await new Promise((r) => from.once('drain', r));
    }
    from.end();
    expect(await end.promise).toBeNull();
    expect(pauses).toBeGreaterThan(0);
    expect(bytes().equals(Buffer.concat(sent))).toBe(true);
  });

  it('reports a failing source once, and a destination that goes away early', async () => {
    const failing = new PassThrough();
    const a = settled();
    batchedPipe(failing, recorder().sink, a.done);
    failing.destroy(Object.assign(new Error('channel closed by the server'), { code: 'ECONNRESET' }));
    expect((await a.promise)?.message).toBe('channel closed by the server');
    await new Promise((r) => setTimeout(r, 10));
    expect(a.calls).toBe(1);

    const from = new PassThrough();
    const { sink } = recorder();
    const b = settled();
    batchedPipe(from, sink, b.done);
    from.write('partial');
    sink.destroy();
    expect((await b.promise)?.code).toBe('ERR_STREAM_PREMATURE_CLOSE');

    // Ended by someone else while the source still sends: reported, not silently dropped.
    const source = new PassThrough();
    const ended = recorder();
    const c = settled();
    batchedPipe(source, ended.sink, c.done);
    ended.sink.end();
    source.write('more');
    expect((await c.promise)?.code).toBe('ERR_STREAM_PREMATURE_CLOSE');
  });
});
