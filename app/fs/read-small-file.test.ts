import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSmallFile, readSmallFileSync } from './read-small-file';

const dir = mkdtempSync(join(tmpdir(), 'ns-small-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const limit = { what: 'identity file', maxBytes: 1024 };
/** A FIFO nobody writes to: opening it the usual way waits for a writer for ever. */
const fifo = (name: string) => {
  const path = join(dir, name);
  execFileSync('mkfifo', [path]);
  return path;
};

describe('readSmallFile', () => {
  it('reads a regular file whole, up to the limit exactly', async () => {
    const path = join(dir, 'key');
    const text = 'x'.repeat(1024);
    writeFileSync(path, text);
    expect((await readSmallFile(path, limit)).toString()).toBe(text);
    expect(readSmallFileSync(path, limit).toString()).toBe(text);
    writeFileSync(path, '');
    expect((await readSmallFile(path, limit)).length).toBe(0);
  });

  it('refuses a FIFO at once instead of waiting for a writer, saying what the path is', async () => {
    const path = fifo('pipe');
    await expect(readSmallFile(path, limit)).rejects.toThrow(`${path} is a FIFO (named pipe), not a regular file: Nodescope reads identity files only from regular files. Give the path of the file itself.`);
    expect(() => readSmallFileSync(path, limit)).toThrow(/is a FIFO \(named pipe\), not a regular file/);
  });

  it('reads /dev/null as empty, as ssh users use it (UserKnownHostsFile /dev/null)', async () => {
    expect((await readSmallFile('/dev/null', limit)).length).toBe(0);
    expect(readSmallFileSync('/dev/null', limit).length).toBe(0);
  });

  it('refuses a device that never ends, such as /dev/zero, and a folder', async () => {
    await expect(readSmallFile('/dev/zero', limit)).rejects.toMatchObject({ code: 'NOT_REGULAR', message: expect.stringContaining('/dev/zero is a character device') });
    expect(() => readSmallFileSync('/dev/zero', limit)).toThrow(/character device/);
    await expect(readSmallFile(dir, limit)).rejects.toThrow(/is a folder, not a regular file/);
  });

  it('refuses a file larger than the limit, naming its size and the limit', async () => {
    const path = join(dir, 'big');
    writeFileSync(path, Buffer.alloc(3 << 20));
    const big = { what: 'identity file', maxBytes: 1 << 20 };
    await expect(readSmallFile(path, big)).rejects.toMatchObject({ code: 'TOO_LARGE', message: `${path} is 3.0 MiB: Nodescope reads identity files only up to 1.0 MiB. Check that this is the right file.` });
    expect(() => readSmallFileSync(path, big)).toThrow(/is 3\.0 MiB/);
  });

  it('passes the error of a missing file through, so callers can treat it as absent', async () => {
    await expect(readSmallFile(join(dir, 'missing'), limit)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(() => readSmallFileSync(join(dir, 'missing'), limit)).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });
});
