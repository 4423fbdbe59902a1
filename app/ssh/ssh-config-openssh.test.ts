import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSshG } from './ssh-config-openssh';

/** A stand-in for ssh that notes each run in a file and prints one `ssh -G` line. */
let dir: string;
let fakeSsh: string;
const runs = async () => (await readFile(join(dir, 'runs'), 'utf8').catch(() => '')).split('\n').filter(Boolean).length;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodescope-ssh-g-'));
  fakeSsh = join(dir, 'ssh');
  await writeFile(fakeSsh, `#!/bin/sh\necho run >> '${join(dir, 'runs')}'\necho "hostname $3"\necho "identityfile a"\necho "identityfile b"\n`);
  await chmod(fakeSsh, 0o755);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('runSshG', () => {
  it('runs ssh once for the same ask made while it runs, and again for a later one', async () => {
    const env = { ...process.env };
    const [a, b, other] = await Promise.all([runSshG(fakeSsh, ['--', 'bastion'], env), runSshG(fakeSsh, ['--', 'bastion'], env), runSshG(fakeSsh, ['--', 'node'], env)]);
    expect(a.values.get('hostname')).toEqual(['bastion']);
    expect(b.values.get('hostname')).toEqual(['bastion']);
    expect(other.values.get('hostname')).toEqual(['node']);
    expect(await runs()).toBe(2);
    // Never an earlier run's answer: the config may have changed since.
    await runSshG(fakeSsh, ['--', 'bastion'], env);
    expect(await runs()).toBe(3);
  });

  it('gives each caller its own values to refine', async () => {
    const env = { ...process.env };
    const [a, b] = await Promise.all([runSshG(fakeSsh, ['--', 'x'], env), runSshG(fakeSsh, ['--', 'x'], env)]);
    a.values.set('identityfile', ['changed']);
    expect(b.values.get('identityfile')).toEqual(['a', 'b']);
  });
});
