import { Writable } from 'node:stream';
import { setImmediate as tick } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { PacedOutput } from './output-backlog';

describe('PacedOutput', () => {
  it('says the reader fell behind once a reader that stopped reading has the limit waiting', () => {
    // A sink that never finishes a write: everything written stays queued, as with a stalled pipe.
    const stalled = new Writable({ write: () => {}, highWaterMark: 1 });
    const out = new PacedOutput(stalled, 1000);
    expect(out.write('x'.repeat(600))).toBe(true);
    expect(out.write('x'.repeat(600))).toBe(true);
    expect(out.write('more')).toBe(false);
    // Only the first was handed to the stream: the second waits for the reader.
    expect(stalled.writableLength).toBe(600);
  });

  it('writes a burst far larger than the limit to a reader that keeps up, then live lines, in order', async () => {
    const chunks: string[] = [];
    // A reader that takes each write on the next turn of the event loop, as a pipe to a fast reader does.
    const reader = new Writable({ highWaterMark: 64, write: (c, _e, done) => (chunks.push(String(c)), setImmediate(done)) });
    const out = new PacedOutput(reader, 10_000);
    const lines = Array.from({ length: 2100 }, (_, i) => `line ${i} ${'x'.repeat(40)}\n`);
    // 2000 lines of a sync (100 KB, ten times the limit) at once, then live lines as they come.
    for (const line of lines.slice(0, 2000)) out.later(() => line);
    for (const line of lines.slice(2000)) {
      expect(out.write(line)).toBe(true);
      await tick();
    }
    while (chunks.length < lines.length) await tick();
    expect(chunks).toEqual(lines);
  });
});
