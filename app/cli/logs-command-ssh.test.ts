// `nodescope logs` over real OpenSSH sshd: the files read on the node, as root, and refused for a user without
// the right with what to do (exit 3).
import { chmod, cp, mkdtemp } from 'node:fs/promises';
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
});
