import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
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

  it('says a kubelet that stops accepting is not known to listen, and still becomes cat', async () => {
    // A kubelet that stopped accepting: its backlog full, its process never accepting (a stuck loop).
    const stuck = join(dir, 'stuck.sock');
    const kubelet = spawn(
      process.execPath,
      ['-e', `require('net').createServer().listen({ path: ${JSON.stringify(stuck)}, backlog: 1 }, () => { console.log('up'); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60000); })`],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const queued: Socket[] = [];
    try {
      await new Promise((up) => kubelet.stdout.once('data', up));
      // Two fill a backlog of one (Linux queues one more than the backlog).
      for (let i = 0; i < 2; i++) {
        const queuedOne = connect(stuck);
        queued.push(queuedOne);
        await new Promise((done, fail) => queuedOne.once('connect', done).once('error', fail));
      }
      const { child, lookedAt, out } = runHolder([stuck]);
      try {
        const probe = await lookedAt(stuck);
        expect(probe).toMatchObject({ access: 'writable' });
        // Not "nothing listens": it did not answer in time, which the first stream will say.
        expect(probe).not.toHaveProperty('listening');
        child.stdin.write('.');
        await expect.poll(() => out().endsWith('nodescope-looked\n.')).toBe(true);
      } finally {
        child.kill();
      }
    } finally {
      for (const s of queued) s.destroy();
      kubelet.kill('SIGKILL');
    }
  });

  it('is plain cat with no socket to look at, else one line for sh that any login shell passes on', () => {
    expect(holderCommand([])).toBe('cat');
    // fish and csh parse neither the script nor a newline inside quotes.
    expect(holderCommand([socketPath])).toMatch(/^sh -c '[^\n]+'$/);
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
