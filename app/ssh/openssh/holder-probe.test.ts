import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holderCommand, readHolderProbes } from './holder-probe';

/** The holder's command run by sh here, as sshd runs it through the login shell on the node. */

let dir: string;
let server: Server;
let socketPath: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodescope-holder-'));
  // A path as a user may configure it, which the shell must take as one literal word.
  socketPath = join(dir, 'a b;touch pwned $x `touch pwned`.sock');
  server = createServer((s) => s.end());
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await rm(dir, { recursive: true, force: true });
});

function runHolder(sockets: string[]) {
  // In dir: a word of the path the shell ran would leave its file there.
  const child = spawn('sh', ['-c', holderCommand(sockets)], { cwd: dir, stdio: ['pipe', 'pipe', 'ignore'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return { child, lookedAt: readHolderProbes(child.stdout, sockets), out: () => out };
}

describe('the session that holds the master', () => {
  it('says what is at each socket, then echoes what it is sent (cat)', async () => {
    const missing = join(dir, 'missing.sock');
    const { child, lookedAt, out } = runHolder([socketPath, missing]);
    try {
      expect(await lookedAt(socketPath)).toMatchObject({ path: socketPath, access: 'writable', listening: true });
      expect(await lookedAt(missing)).toMatchObject({ path: missing, access: 'missing' });
      child.stdin.write('.');
      await expect.poll(() => out().endsWith('nodescope-looked\n.')).toBe(true);
    } finally {
      child.kill();
    }
    // The path was looked at, never run.
    await expect(rm(join(dir, 'pwned'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('is plain cat with no socket to look at', () => {
    expect(holderCommand([])).toBe('cat');
  });

  it('leaves to the bridge what it did not say: a shell that ran something else, or a session that ended', async () => {
    const refused = new PassThrough();
    const lookedAt = readHolderProbes(refused, ['/x.sock']);
    // A ForceCommand's output, and its end, instead of the probe.
    refused.end('This account is restricted.\n');
    refused.destroy();
    expect(await lookedAt('/x.sock')).toBeUndefined();

    const split = new PassThrough();
    const halves = readHolderProbes(split, ['/y.sock']);
    for (const part of ['acc', 'ess=miss', 'ing\nnodescope-', 'looked\n..']) split.write(part);
    expect(await halves('/y.sock')).toEqual({ path: '/y.sock', access: 'missing' });
  });
});
