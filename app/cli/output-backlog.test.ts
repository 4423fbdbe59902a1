import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { writeUnlessBacklogged } from './output-backlog';

describe('writeUnlessBacklogged', () => {
  it('refuses to queue more once a reader that stopped reading has the limit waiting', () => {
    // A sink that never finishes a write: everything written stays queued, as with a stalled pipe.
    const stalled = new Writable({ write: () => {}, highWaterMark: 1 });
    expect(writeUnlessBacklogged(stalled, 'x'.repeat(600), 1000)).toBe(true);
    expect(writeUnlessBacklogged(stalled, 'x'.repeat(600), 1000)).toBe(true);
    expect(writeUnlessBacklogged(stalled, 'more', 1000)).toBe(false);
    expect(stalled.writableLength).toBe(1200);
  });

  it('keeps writing to a reader that keeps up', () => {
    const chunks: string[] = [];
    const reader = new Writable({ write: (c, _e, done) => (chunks.push(String(c)), done()) });
    for (let i = 0; i < 100; i++) expect(writeUnlessBacklogged(reader, 'line\n', 10)).toBe(true);
    expect(chunks).toHaveLength(100);
  });
});
