import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REQUIRED_TOOLS } from './required-tools';
import { planPrerequisites } from './test-prerequisites';

const entry = resolve(__dirname, 'test-prerequisites.ts');
const runTs = resolve(__dirname, '../../bin/run-ts.js');
const emptyBin = mkdtempSync(join(tmpdir(), 'ns-prereq-'));
afterAll(() => rmSync(emptyBin, { recursive: true, force: true }));

/** npm test's first step as npm runs it, with the PATH given. */
const runStep = (PATH: string) => spawnSync(process.execPath, [runTs, entry], { env: { ...process.env, PATH }, encoding: 'utf8', timeout: 60_000 });

const tool = (command: string) => REQUIRED_TOOLS.find((t) => t.command === command)!;

describe("npm test's prerequisites step", () => {
  it('stops at once on a machine where the tools are not on PATH, naming them and their packages in one message', () => {
    // Only node itself: no ssh-keygen, ssh, python3, visudo... and no apt-get to install them with.
    symlinkSync(process.execPath, join(emptyBin, 'node'));
    const run = runStep(emptyBin);
    expect(run.status).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    for (const name of ['ssh-keygen', 'ssh-agent', 'visudo', 'useradd', 'python3']) expect(lines[0]).toContain(name);
    expect(lines[0]).toMatch(/no apt-get here to install them\. Install these Debian packages \(or your system's equivalents\): openssh-client .*sudo.*passwd.*python3/);
  });

  it('lets the tests run when every tool is there', () => {
    const run = runStep(process.env.PATH ?? '');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('installs with apt-get as root, and otherwise says to run as root and what to install', () => {
    const missing = [tool('/usr/bin/socat'), tool('python3'), tool('ssh'), tool('ssh-add')];
    expect(planPrerequisites({ missing, isRoot: true, hasAptGet: true })).toEqual({ action: 'install', packages: ['socat', 'python3', 'openssh-client'] });
    expect(planPrerequisites({ missing: [], isRoot: true, hasAptGet: false })).toEqual({ action: 'ready' });
    const asUser = planPrerequisites({ missing, isRoot: false, hasAptGet: true });
    expect(asUser).toEqual({
      action: 'stop',
      message:
        'npm test: the tests need /usr/bin/socat, python3, ssh, ssh-add and must run as root (they start OpenSSH sshd and create test users). ' +
        'Run it as root (sudo npm test), which installs them with apt-get, or install the packages socat python3 openssh-client first.',
    });
    expect(planPrerequisites({ missing: [], isRoot: false, hasAptGet: true })).toEqual({
      action: 'stop',
      message: 'npm test: the tests must run as root (they start OpenSSH sshd and create test users). Run it as root, e.g. sudo npm test.',
    });
  });
});
