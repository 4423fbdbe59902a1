// `nodescope logs` over real OpenSSH sshd: the files read on the node, as root, and refused for a user without
// the right with what to do (exit 3).
import { appendFile, chmod, cp, mkdir, mkdtemp, truncate, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HARNESS_HOST_ALIASES as A, startSshHarness, type SshHarness } from '../../e2e/harness/ssh-harness';
import { EXIT } from './exit-codes';
import { nodescope } from './testing/run-nodescope';

const TESTDATA = resolve(dirname(fileURLToPath(import.meta.url)), '../logs/testdata');
let h: SshHarness;
let logDir: string;

beforeAll(async () => {
  h = await startSshHarness();
  // A root-only copy of the known log directory, inside the harness's folder.
  logDir = await mkdtemp(join(h.dir, 'pods-'));
  await cp(join(TESTDATA, 'var-log-pods'), logDir, { recursive: true });
  await chmod(logDir, 0o700);
}, 60_000);
afterAll(() => h?.stop());

describe('nodescope logs over SSH', () => {
  it('prints the same bytes as kubectl logs, read on the node', async () => {
    const r = await nodescope(['logs', '-F', h.sshConfig, A.target, 'default/web', '-c', 'app', '--timestamps', '--log-dir', logDir]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(EXIT.ok);
    expect(r.stdout).toBe(await readFile(join(TESTDATA, 'expected', 'timestamps.out'), 'utf8'));
  });

  it('a user who may not read the files gets exit 3 and the advice to use --sudo', async () => {
    const r = await nodescope(['logs', '-F', h.sshConfig, A.targetNoSudo, 'default/web', '-c', 'app', '--log-dir', logDir]);
    expect(r.code).toBe(EXIT.connection);
    expect(r.stderr).toContain('not allowed to list');
    expect(r.stderr).toContain('next step: Container logs are root-only: log in as root, or add --sudo (sudo -n).');
    const sudo = await nodescope(['logs', '-F', h.sshConfig, A.targetNoSudo, 'default/web', '-c', 'app', '--log-dir', logDir, '--sudo']);
    expect(sudo.code).toBe(EXIT.connection);
    expect(sudo.stderr).toContain("next step: sudoers must allow `sudo -n 'ls' '-1A' '--'");
  });

  it('tails a 1 GiB log with --tail 1000: exactly its last 1,000 lines, reading only one chunk from its end', async () => {
    const GIB = 1024 ** 3;
    const dir = join(logDir, 'default_big_6a1f7c2e-0d4b-4e8a-9c3f-1b2d3e4f5a60', 'app');
    await mkdir(dir, { recursive: true });
    const file = join(dir, '0.log');
    const line = (i: number) => `2026-01-01T10:00:00.${String(i).padStart(9, '0')}Z stdout F line ${i}\n`;
    const last = Array.from({ length: 1200 }, (_, i) => line(i)).join('');
    // Sparse: 1 GiB in size, no disk used; its NULs end in one unparsable line before the CRI lines.
    await writeFile(file, '');
    await truncate(file, GIB - last.length - 1);
    await appendFile(file, `\n${last}`);
    const r = await nodescope(['logs', '-v', '-F', h.sshConfig, A.target, 'default/big', '-c', 'app', '--tail', '1000', '--log-dir', logDir]);
    expect(r.code).toBe(EXIT.ok);
    expect(r.stdout).toBe(Array.from({ length: 1000 }, (_, i) => `line ${i + 200}\n`).join(''));
    // The reads the node ran (-v): each `dd` range, within the last 64 KiB, and nothing read twice.
    const reads = [...r.stderr.matchAll(/'dd' .*'skip=(\d+)' 'count=(\d+)'/g)].map((m) => ({ skip: Number(m[1]), count: Number(m[2]) }));
    expect(reads).toEqual([{ skip: GIB - 64 * 1024, count: 64 * 1024 }]);
  });
});
