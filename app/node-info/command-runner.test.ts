// The runner used on the node itself (unix: sources): no shell, bounded output, a missing program as an answer.
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemoteRunError } from '../ssh/remote-exec';
import { commandLine, localCommandRunner } from './command-runner';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodescope-runner-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('localCommandRunner', () => {
  it('passes every word as it is: nothing is run by a shell', async () => {
    const marker = join(dir, 'ran');
    const r = await localCommandRunner().run(['echo', `$(touch ${marker})`, ';', 'id']);
    expect(r).toEqual({ stdout: `$(touch ${marker}) ; id\n`, stderr: '', code: 0 });
    await expect(import('node:fs/promises').then((fs) => fs.stat(marker))).rejects.toThrow(/ENOENT/);
  });

  it('gives the exit code and stderr of a failing program, and 127 for one that is not there', async () => {
    const script = join(dir, 'fails');
    await writeFile(script, '#!/bin/sh\necho nope >&2\nexit 3\n');
    await chmod(script, 0o755);
    expect(await localCommandRunner().run([script])).toEqual({ stdout: '', stderr: 'nope\n', code: 3 });
    expect(await localCommandRunner().run([join(dir, 'missing')])).toMatchObject({ code: 127, stderr: expect.stringContaining('command not found') });
  });

  it('stops a program that prints more than it may, and one that runs too long', async () => {
    await expect(localCommandRunner().run(['head', '-c', '100000', '/dev/zero'], { maxStdoutBytes: 1000 })).rejects.toMatchObject({ code: 'TOO_MUCH_OUTPUT' });
    const err = await localCommandRunner().run(['sleep', '5'], { timeoutMs: 100 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteRunError);
    expect(err).toMatchObject({ code: 'TIMEOUT' });
  });
});

describe('commandLine', () => {
  it('shows the command as it runs, sudo included, quoting only what a shell would read otherwise', () => {
    expect(commandLine(['cat', '--', '/var/lib/kubelet/config.yaml'], { sudo: true })).toBe('sudo -n cat -- /var/lib/kubelet/config.yaml');
    expect(commandLine(['cat', '--', "/tmp/a b/it's"])).toBe(`cat -- '/tmp/a b/it'\\''s'`);
  });
});
