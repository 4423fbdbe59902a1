import { chmodSync, chownSync, lstatSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic, writeFileAtomicFromChunks, writeFileAtomicFromChunksAsync } from './atomic-file';
import { whyCannotWrite } from './write-error';

const dir = mkdtempSync(join(tmpdir(), 'nodescope-atomic-'));
const temps = () => readdirSync(dir).filter((f) => f.endsWith('.tmp'));
const modeOf = (path: string) => statSync(path).mode & 0o7777;
const writeChunks = (path: string, text: string, options?: Parameters<typeof writeFileAtomicFromChunks>[2]) =>
  writeFileAtomicFromChunks(path, (write) => write(Buffer.from(text)), options);

describe('atomic file writes', () => {
  it('replaces a file whole, leaving no temporary file', async () => {
    const path = join(dir, 'nodes.json');
    writeFileSync(path, 'old');
    expect(await writeFileAtomic(path, 'new ✓')).toBe(Buffer.byteLength('new ✓'));
    expect(readFileSync(path, 'utf8')).toBe('new ✓');
    expect(temps()).toEqual([]);
  });

  it('creates a new file private to the user, whatever the umask', () => {
    const path = join(dir, 'fresh-export.json');
    writeChunks(path, '{}');
    expect(modeOf(path)).toBe(0o600);
  });

  it('keeps the permissions of the file it replaces, wider or narrower', () => {
    for (const mode of [0o640, 0o604, 0o400]) {
      const path = join(dir, `kept-${mode.toString(8)}.json`);
      writeFileSync(path, 'old');
      chmodSync(path, mode);
      writeChunks(path, 'new');
      expect([readFileSync(path, 'utf8'), modeOf(path)]).toEqual(['new', mode]);
    }
  });

  it("keeps the owner and group of the file it replaces (root writing a user's file)", () => {
    const path = join(dir, 'users-export.json');
    writeFileSync(path, 'old');
    chownSync(path, 65534, 65534); // the tests run as root, as sshd needs
    writeChunks(path, 'new');
    const { uid, gid } = statSync(path);
    expect([readFileSync(path, 'utf8'), uid, gid]).toEqual(['new', 65534, 65534]);
  });

  it('writes through a symlink: the link stays, the file it names gets the data and keeps its mode', () => {
    const real = join(dir, 'real-target.json');
    writeFileSync(real, 'old');
    chmodSync(real, 0o600);
    const link = join(dir, 'link.json');
    symlinkSync('real-target.json', link);
    writeChunks(link, 'through');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe('real-target.json');
    expect([readFileSync(real, 'utf8'), modeOf(real)]).toEqual(['through', 0o600]);
  });

  it('refuses a dangling symlink, a FIFO and a folder, naming why, and leaves them as they were', () => {
    const dangling = join(dir, 'dangling.json');
    symlinkSync('nowhere.json', dangling);
    const fifo = join(dir, 'pipe.json');
    execFileSync('mkfifo', [fifo]);
    const folder = mkdtempSync(join(dir, 'folder-'));
    const reasons = [dangling, fifo, folder].map((path) => {
      try {
        writeChunks(path, 'x');
        return 'written';
      } catch (err) {
        return whyCannotWrite(err);
      }
    });
    expect(reasons).toEqual(['it is a symbolic link to a file that does not exist', 'it is not a regular file (a device, pipe or socket)', 'it is a folder']);
    expect(readlinkSync(dangling)).toBe('nowhere.json');
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(temps()).toEqual([]);
  });

  it("with existing: 'refuse', writes a new file but never replaces one", () => {
    const path = join(dir, 'no-clobber.json');
    writeChunks(path, 'first', { existing: 'refuse' });
    expect(() => writeChunks(path, 'second', { existing: 'refuse' })).toThrow(expect.objectContaining({ code: 'EEXIST' }));
    expect(readFileSync(path, 'utf8')).toBe('first');
    expect(temps()).toEqual([]);
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
