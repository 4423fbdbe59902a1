// Log files on a node over real OpenSSH sshd: the reads are fixed commands (ls, stat, dd) with every argument
// quoted, as root, through sudo -n, and refused for a user who may not read them, with what to do.
import { appendFile, chmod, mkdir, open, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSshHarness, type SshHarness } from '../../e2e/harness/ssh-harness';
import { openSshConnection, type SshConnection } from '../ssh/ssh-connection';
import { harnessTarget, scriptedPrompter } from '../ssh/testing/ssh-test-kit';
import { containerLogs } from './container-logs';
import { localFileAccess } from './local-file-access';
import { LogAccessError, type LogFileAccess } from './log-file-access';
import type { LogReadOptions } from './log-options';
import { nodeFileAccess } from './node-file-access';
import { findPodLogDir } from './pod-log-layout';
import { countingAccess } from './testing/counting-access';

let h: SshHarness;
let logsDir: string;
let cdir: string;
let sdir: string;
const conns: SshConnection[] = [];

const line = (i: number) => `2026-01-01T10:00:${String(i % 60).padStart(2, '0')}.${String(i).padStart(9, '0')}Z ${i % 3 ? 'stdout' : 'stderr'} F line ${i}\n`;
const lines = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => line(from + k)).join('');

beforeAll(async () => {
  h = await startSshHarness();
  // Root-only, as the runtimes leave them: the folder 0700, the files 0640.
  logsDir = join(h.dir, 'pods-logs');
  cdir = join(logsDir, 'kube-system_coredns-7db6d8ff4d-x2x9q_7c0e5b1a-1111-4222-8333-944455556666', 'coredns');
  await mkdir(cdir, { recursive: true });
  await chmod(logsDir, 0o700);
  sdir = join(cdir, '..', 'sidecar');
  await mkdir(sdir);
  await writeFile(join(sdir, '0.log'), lines(0, 5), { mode: 0o640 });
  await writeFile(join(sdir, '1.log.20260101-100000.gz'), gzipSync(lines(5, 500)), { mode: 0o640 });
  await writeFile(join(sdir, '1.log'), lines(500, 520), { mode: 0o640 });
  const fh = await open(join(cdir, '0.log'), 'w', 0o640);
  await fh.write(lines(500, 510));
  await fh.write(lines(510, 520), 50 * 1024 * 1024);
  await fh.close();
}, 60_000);

afterAll(async () => {
  for (const c of conns) c.close();
  await h?.stop();
});

async function access(user: 'root' | 'noSudo' | 'operator', sudo: boolean): Promise<LogFileAccess> {
  const conn = await openSshConnection(harnessTarget(h, h[user]), { prompter: scriptedPrompter() });
  conns.push(conn);
  return nodeFileAccess(async () => conn.channels, { node: 'target', sudo });
}

async function read(a: LogFileAccess, opts: LogReadOptions, previous = false, container = 'coredns'): Promise<string> {
  const pod = await findPodLogDir(a, logsDir, 'kube-system/coredns-7db6d8ff4d-x2x9q');
  let out = '';
  for await (const w of containerLogs(a).read({ pod, container, previous }, opts)) out += w.bytes.toString();
  return out;
}

describe('container logs on a node over SSH', () => {
  it('tails a 50 MB file as root moving only its end over the link, the same lines as read locally', async () => {
    const remote = countingAccess(await access('root', false));
    const got = await read(remote, { tailLines: 4, timestamps: true });
    expect(got).toBe(await read(localFileAccess(), { tailLines: 4, timestamps: true }));
    expect(got.split('\n')[3]).toBe('2026-01-01T10:00:39.000000519Z line 519');
    expect(remote.bytesRead()).toBeLessThanOrEqual(128 * 1024);
  });

  it('reads rotated gzip files through sudo -n intact, and the previous instance', async () => {
    const remote = await access('root', true);
    const all = await read(remote, { includeRotated: true, tailLines: 600 }, false, 'sidecar');
    expect(all.split('\n').filter((l) => l.startsWith('line ')).map((l) => Number(l.slice(5)))).toEqual(Array.from({ length: 515 }, (_, k) => k + 5));
    expect(await read(remote, {}, true, 'sidecar')).toBe('line 0\nline 1\nline 2\nline 3\nline 4\n');
  });

  it('follows across a rotation on the node', async () => {
    const remote = await access('root', false);
    const pod = await findPodLogDir(remote, logsDir, '7c0e5b1a-1111-4222-8333-944455556666');
    const ac = new AbortController();
    const got: string[] = [];
    const done = (async () => {
      for await (const w of containerLogs(remote).read({ pod, container: 'sidecar' }, { follow: true, tailLines: 1, pollIntervalMs: 50, signal: ac.signal })) {
        got.push(w.bytes.toString());
        if (got.length === 3) ac.abort();
      }
    })();
    // Rotate only once the follower holds the file: on a busy machine the dial alone can take seconds.
    while (got.length < 1) await new Promise((r) => setTimeout(r, 20));
    const live = join(sdir, '1.log');
    await appendFile(live, line(520));
    await rename(live, `${live}.20260101-110000`);
    await writeFile(live, line(521), { mode: 0o640 });
    await done;
    expect(got).toEqual(['line 519\n', 'line 520\n', 'line 521\n']);
  });

  it('refuses a user who may not read the files, saying to use --sudo, or what sudoers must allow', async () => {
    const plain = await read(await access('noSudo', false), {}).catch((e: unknown) => e);
    expect(plain).toBeInstanceOf(LogAccessError);
    expect((plain as LogAccessError).code).toBe('PERMISSION');
    expect((plain as LogAccessError).nextStep).toContain('add --sudo');
    const sudo = await read(await access('operator', true), {}).catch((e: unknown) => e);
    expect((sudo as LogAccessError).code).toBe('PERMISSION');
    expect((sudo as LogAccessError).nextStep).toMatch(/^sudoers must allow `sudo -n 'ls' '-1A' '--' '.*pods-logs'` without a password/);
  });

  it('passes a path to the node as one word: shell syntax in it is never run', async () => {
    const odd = join(h.dir, `odd $(echo INJECTED >&2) 'q' \`id >&2\``);
    await mkdir(join(odd, 'default_a_0b6c6f5e-7d52-4a39-9b2e-2f5b2b7f2f11'), { recursive: true });
    const remote = await access('root', false);
    expect(await remote.list(odd)).toEqual(['default_a_0b6c6f5e-7d52-4a39-9b2e-2f5b2b7f2f11']);
    const missing = await remote.stat(join(odd, 'nothing; echo INJECTED'));
    expect(missing).toBeUndefined();
  });

  it('waits for a session when sshd has as many open as its MaxSessions allows (many follows on one connection)', async () => {
    const narrow = await startSshHarness({ address: '127.0.0.5', sshdOptions: { MaxSessions: '2' } });
    try {
      const conn = await openSshConnection(harnessTarget(narrow, narrow.root), { prompter: scriptedPrompter() });
      conns.push(conn);
      const remote = nodeFileAccess(async () => conn.channels, { node: 'target', sudo: false });
      // Twenty looks at once, as twenty followers polling together.
      const looks = await Promise.all(Array.from({ length: 20 }, () => remote.stat(join(cdir, '0.log'))));
      expect(looks.map((l) => l?.size)).toEqual(Array(20).fill(50 * 1024 * 1024 + lines(510, 520).length));
    } finally {
      await narrow.stop();
    }
  }, 60_000);
});

