import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic, writeFileAtomicFromChunks, writeFileAtomicFromChunksAsync } from './atomic-file';

const dir = mkdtempSync(join(tmpdir(), 'nodescope-atomic-'));

describe('atomic file writes', () => {
  it('replaces a file whole, with the mode asked for, leaving no temporary file', async () => {
    const path = join(dir, 'nodes.json');
    writeFileSync(path, 'old');
    expect(await writeFileAtomic(path, 'new ✓', 0o600)).toBe(Buffer.byteLength('new ✓'));
    expect(readFileSync(path, 'utf8')).toBe('new ✓');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('writes chunked output as it comes, copying chunks that the producer reuses', () => {
    const path = join(dir, 'export.json');
    const reused = new Uint8Array(3);
    const { result, bytes } = writeFileAtomicFromChunks(path, (write) => {
      for (const c of ['abc', 'def', 'ghi']) {
        reused.set(Buffer.from(c));
        write(reused);
      }
      return 'done';
    });
    expect([result, bytes, readFileSync(path, 'utf8')]).toEqual(['done', 9, 'abcdefghi']);
  });

  it('keeps the old file and leaves nothing behind when producing fails midway', () => {
    const path = join(dir, 'keep.json');
    writeFileSync(path, 'previous export');
    expect(() =>
      writeFileAtomicFromChunks(path, (write) => {
        write(Buffer.from('partial'));
        throw new Error('connection lost');
      }),
    ).toThrowError('connection lost');
    expect(readFileSync(path, 'utf8')).toBe('previous export');
    expect(readdirSync(dir).filter((f) => f.startsWith('.keep'))).toEqual([]);
  });

  it('writes output that arrives over time, and keeps the old file when it fails midway', async () => {
    const path = join(dir, 'streamed.json');
    const { result, bytes } = await writeFileAtomicFromChunksAsync(path, async (write) => {
      write(Buffer.from('first '));
      await new Promise((r) => setImmediate(r));
      write(Buffer.from('second'));
      return 2;
    });
    expect([result, bytes, readFileSync(path, 'utf8')]).toEqual([2, 12, 'first second']);

    await expect(
      writeFileAtomicFromChunksAsync(path, async (write) => {
        write(Buffer.from('partial'));
        await new Promise((r) => setImmediate(r));
        throw new Error('connection lost');
      }),
    ).rejects.toThrowError('connection lost');
    expect(readFileSync(path, 'utf8')).toBe('first second');
    expect(readdirSync(dir).filter((f) => f.startsWith('.streamed'))).toEqual([]);
  });
});
