import { appendFile, mkdir, mkdtemp, open, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { containerLogs } from './container-logs';
import { localFileAccess } from './local-file-access';
import type { LogFileAccess } from './log-file-access';
import type { LogReadOptions } from './log-options';
import { findPodLogDir } from './pod-log-layout';
import { countingAccess } from './testing/counting-access';

let dir: string;
let cdir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ns-logs-'));
  cdir = join(dir, 'default_web_0b6c6f5e-7d52-4a39-9b2e-2f5b2b7f2f11', 'app');
  await mkdir(cdir, { recursive: true });
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const line = (i: number, stream = 'stdout') => `2026-01-01T10:00:${String(i % 60).padStart(2, '0')}.${String(i).padStart(9, '0')}Z ${stream} F line ${i}\n`;
const lines = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => line(from + k)).join('');

async function read(opts: LogReadOptions = {}, previous = false, access = localFileAccess()): Promise<string> {
  const pod = await findPodLogDir(access, dir, 'default/web');
  let out = '';
  for await (const w of containerLogs(access).read({ pod, container: 'app', previous }, opts)) out += w.bytes.toString();
  return out;
}

describe('container logs from files', () => {
  it('tails a 200 MB file reading only its end', async () => {
    const path = join(cdir, '0.log');
    const fh = await open(path, 'w');
    await fh.write(lines(0, 10));
    const tail = lines(10, 20);
    // Sparse middle: the size is real, the disk use is not. Its NULs are one long unparsable line.
    await fh.write(`\n${tail}`, 200 * 1024 * 1024);
    await fh.close();
    const access = countingAccess(localFileAccess());
    expect(await read({ tailLines: 5 }, false, access)).toBe('line 15\nline 16\nline 17\nline 18\nline 19\n');
    // One 64 KiB chunk backwards, which holds the lines themselves: nothing of the 200 MB before them, and the
    // tail not read a second time.
    expect(access.bytesRead()).toBe(64 * 1024);
  });

  it('reads a whole log in pieces, one command each: the file is looked at again only where no line before a piece proves it the same', async () => {
    // About 11 MB: three 4 MiB pieces.
    const all = lines(0, 220_000);
    await writeFile(join(cdir, '0.log'), all);
    const access = countingAccess(localFileAccess());
    expect(await read({}, false, access)).toBe(all.replace(/^\S+ stdout F /gm, ''));
    // Its size first; the first piece has nothing before it to check, so a stat says the path still names the file.
    expect(access.commands()).toEqual({ stats: 2, reads: 3 });
  });

  it('reads the previous instance with --previous, and says when there is none', async () => {
    await writeFile(join(cdir, '0.log'), line(1));
    await expect(read({}, true)).rejects.toThrow('previous terminated container "app" in pod "default/web" not found');
    await writeFile(join(cdir, '1.log'), line(2));
    expect(await read({}, true)).toBe('line 1\n');
    expect(await read()).toBe('line 2\n');
  });

  it('reads rotated files, gzip too, oldest first, only when asked and only as far as the tail needs', async () => {
    await writeFile(join(cdir, '0.log.20260101-100000.gz'), gzipSync(lines(0, 10)));
    await writeFile(join(cdir, '0.log.20260101-100010'), lines(10, 20));
    await writeFile(join(cdir, '0.log'), lines(20, 25));
    expect(await read()).toBe(lines(20, 25).replace(/^\S+ stdout F /gm, ''));
    const all = await read({ includeRotated: true });
    expect(all.split('\n').slice(0, 3)).toEqual(['line 0', 'line 1', 'line 2']);
    expect(all.split('\n')).toHaveLength(26);
    expect(await read({ includeRotated: true, tailLines: 17 })).toBe(Array.from({ length: 17 }, (_, k) => `line ${k + 8}\n`).join(''));
    expect(await read({ includeRotated: true, limitBytes: 10 })).toBe('line 0\nlin');
    await writeFile(join(cdir, '0.log.20260101-095959.gz'), 'not gzip');
    await expect(read({ includeRotated: true })).rejects.toThrow(/0\.log\.20260101-095959\.gz on this machine is not whole gzip: incorrect header check/);
    await rm(join(cdir, '0.log.20260101-095959.gz'));
    expect(await read({ includeRotated: true, tailLines: 7 })).toBe(Array.from({ length: 7 }, (_, k) => `line ${k + 18}\n`).join(''));
  });

  it('follows across a rotation without losing what was written before the rename', async () => {
    const path = join(cdir, '0.log');
    await writeFile(path, line(1));
    const { got, done } = await following(4);
    await waitFor(() => got.length === 1);
    // Written and rotated between two polls: the kubelet's reader would miss line 2.
    await appendFile(path, line(2));
    await rename(path, `${path}.20260101-100000`);
    await writeFile(path, line(3));
    await waitFor(() => got.length === 3);
    await appendFile(path, line(4));
    await done;
    expect(got).toEqual(['line 1\n', 'line 2\n', 'line 3\n', 'line 4\n']);
  });

  it('follows across a rotation that comes between a poll\'s stat and its read: the renamed file\'s bytes, never the new file\'s at the old offset', async () => {
    const path = join(cdir, '0.log');
    await writeFile(path, line(1));
    // The rotation lands just before the follower's next read of the live path, after its stat saw the file grow.
    const access = rotatingBeforeRead(path, line(3) + line(4));
    const { got, done } = await following(4, access);
    await waitFor(() => got.length === 1);
    access.arm();
    await appendFile(path, line(2));
    await done;
    expect(got).toEqual(['line 1\n', 'line 2\n', 'line 3\n', 'line 4\n']);
  });

  it('reads a tail again when the file is rotated while its tail is found: never lines of one file at the other\'s offsets', async () => {
    const path = join(cdir, '0.log');
    await writeFile(path, lines(1, 3));
    const access = rotatingBeforeRead(path, lines(3, 11));
    access.arm();
    expect(await read({ tailLines: 1 }, false, access)).toBe('line 10\n');
  });

  it('follows a file truncated and written again between two looks from its beginning, not from the old offset', async () => {
    const path = join(cdir, '0.log');
    await writeFile(path, line(1));
    const { got, done } = await following(4);
    await waitFor(() => got.length === 1);
    // CRI-O's size cap reopens the file truncated; more than was there before is written before the next look.
    await writeFile(path, lines(2, 5));
    await done;
    expect(got).toEqual(['line 1\n', 'line 2\n', 'line 3\n', 'line 4\n']);
  });

  it('a follower that has read nothing yet still tells another file under the same identity (a reused inode) from its own', async () => {
    const path = join(cdir, '0.log');
    await writeFile(path, lines(1, 3));
    // A follower far behind meets a new file that took the removed one's inode: same identity, other bytes.
    const reused = oneInode();
    const { got, done } = await following(4, reused, { tailLines: 0 });
    // Its tail found (a look, and one after) and following (a third).
    await expect.poll(() => reused.looks).toBeGreaterThanOrEqual(3);
    await writeFile(path, lines(10, 14));
    await done;
    expect(got).toEqual(['line 10\n', 'line 11\n', 'line 12\n', 'line 13\n']);
  });

  it('tells another file under the same identity by the whole last line read, its time in it, not only its last bytes', async () => {
    const path = join(cdir, '0.log');
    // The same long content on every line: only the times tell the lines apart.
    const same = (i: number) => line(i).replace(/line \d+/, 'x'.repeat(200));
    await writeFile(path, same(1) + same(2));
    const reused = oneInode();
    const { got, done } = await following(6, reused);
    await waitFor(() => got.length === 2);
    await writeFile(path, [3, 4, 5, 6].map(same).join(''));
    await done;
    expect(got).toEqual(Array(6).fill(`${'x'.repeat(200)}\n`));
  });

  it('a follower ends when the container restarts (a newer instance file appears)', async () => {
    await writeFile(join(cdir, '0.log'), line(1));
    const pending = read({ follow: true, pollIntervalMs: 20 });
    await new Promise((r) => setTimeout(r, 60));
    await appendFile(join(cdir, '0.log'), line(2, 'stderr'));
    await new Promise((r) => setTimeout(r, 60));
    await writeFile(join(cdir, '1.log'), line(3));
    expect(await pending).toBe('line 1\nline 2\n');
  });

  it('a follower ends when its file is removed beside a newer instance\'s (garbage-collected after a restart; it polled for ever)', async () => {
    await writeFile(join(cdir, '0.log'), line(1));
    const got: string[] = [];
    const access = localFileAccess();
    const pod = await findPodLogDir(access, dir, 'web');
    const reading = (async () => {
      for await (const w of containerLogs(access).read({ pod, container: 'app' }, { follow: true, pollIntervalMs: 20 })) got.push(w.bytes.toString());
    })();
    await waitFor(() => got.length === 1);
    // Between two looks: the container restarted and its old instance was removed.
    await writeFile(join(cdir, '1.log'), line(2));
    await rm(join(cdir, '0.log'));
    await reading;
    expect(got).toEqual(['line 1\n']);
  });

  it('a follower ends, saying why, when the pod is deleted and its log folder removed (it polled for ever)', async () => {
    await writeFile(join(cdir, '0.log'), line(1));
    const pending = read({ follow: true, pollIntervalMs: 20 });
    await new Promise((r) => setTimeout(r, 60));
    // Awaited from before the removal: the follower may see the folder gone while rm is still under way.
    const ended = expect(pending).rejects.toThrow(/is gone from .*: the pod was deleted or its logs garbage-collected/);
    await rm(join(dir, 'default_web_0b6c6f5e-7d52-4a39-9b2e-2f5b2b7f2f11'), { recursive: true });
    await ended;
  });

  it('names what is missing: the pod, the container', async () => {
    await expect(read()).rejects.toThrow('has no log file');
    await expect(findPodLogDir(localFileAccess(), dir, 'default/nope')).rejects.toThrow('no logs for pod default/nope');
    await expect(findPodLogDir(localFileAccess(), dir, '../etc')).rejects.toThrow('is not a pod name');
  });
});

async function waitFor(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!cond()) throw new Error('condition not reached');
}

/** Follows the container's log, each piece as it comes, until `count` came. */
async function following(count: number, access: LogFileAccess = localFileAccess(), options: LogReadOptions = {}): Promise<{ got: string[]; done: Promise<void> }> {
  const ac = new AbortController();
  const pod = await findPodLogDir(access, dir, 'web');
  const got: string[] = [];
  const done = (async () => {
    for await (const w of containerLogs(access).read({ pod, container: 'app' }, { ...options, follow: true, pollIntervalMs: 20, signal: ac.signal })) {
      got.push(w.bytes.toString());
      if (got.length === count) ac.abort();
    }
  })();
  return { got, done };
}

/** This machine's files, where once armed the next read of `path` finds it rotated first: renamed, a new file holding `next`. */
function rotatingBeforeRead(path: string, next: string): LogFileAccess & { arm(): void } {
  let armed = false;
  const local = localFileAccess();
  return {
    ...local,
    async *read(p, offset, length) {
      if (armed && p === path) {
        armed = false;
        await rename(path, `${path}.20260101-100000`);
        await writeFile(path, next);
      }
      yield* local.read(p, offset, length);
    },
    arm: () => void (armed = true),
  };
}

/** This machine's files, every one under one identity (as a new file that took a removed one's inode), counting the looks. */
function oneInode(): LogFileAccess & { looks: number } {
  const local = localFileAccess();
  const access = {
    ...local,
    looks: 0,
    async stat(p: string) {
      access.looks++;
      const s = await local.stat(p);
      return s && { ...s, identity: 'one inode' };
    },
  };
  return access;
}

