// Several containers followed at once: one that fails ends the whole read with its error at once, rather than
// waiting for a quiet container's next line that may never come.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { containerLogs } from './container-logs';
import { localFileAccess } from './local-file-access';
import { findPodLogDir } from './pod-log-layout';
import { readPodLogs } from './pod-logs';

let dir: string;
let pdir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ns-podlogs-'));
  pdir = join(dir, 'default_web_0b6c6f5e-7d52-4a39-9b2e-2f5b2b7f2f11');
  for (const c of ['a', 'b']) {
    await mkdir(join(pdir, c), { recursive: true });
    await writeFile(join(pdir, c, '0.log'), `2026-01-01T10:00:00.000000001Z stdout F ${c} 1\n`);
  }
});
afterEach(() => rm(dir, { recursive: true, force: true }));

it('a follow of several containers ends with the error of one that fails, while another stays quiet', async () => {
  const access = localFileAccess();
  const pod = await findPodLogDir(access, dir, 'default/web');
  const got: string[] = [];
  const reading = (async () => {
    for await (const l of readPodLogs(containerLogs(access), pod, ['a', 'b'], false, { follow: true, pollIntervalMs: 20 }, 'sequential')) got.push(`${l.container}: ${l.bytes}`);
  })();
  const failed = expect(reading).rejects.toThrow(/the log folder .*\/a is gone/);
  await expect.poll(() => got.length).toBe(2);
  await rm(join(pdir, 'a'), { recursive: true });
  // Ends although b stays quiet: its reader is stopped, not waited on (this waited for b's next line for ever).
  await failed;
  expect(got.sort()).toEqual(['a: a 1\n', 'b: b 1\n']);
});
