import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalForwarder } from './local-forwarder';

/** Stands in for the kubelet socket: answers only after the client half-closed, like a request/response peer. */
const remoteDir = mkdtempSync(join(tmpdir(), 'ns-remote-'));
const remotePath = join(remoteDir, 'remote.sock');
let remote: Server;

beforeAll(async () => {
  remote = createServer({ allowHalfOpen: true }, (s) => {
    const chunks: Buffer[] = [];
    s.on('error', () => {}); // the failure tests cut connections on purpose
    s.on('data', (c: Buffer) => chunks.push(c));
    s.on('end', () => s.end(Buffer.concat(chunks).toString().toUpperCase()));
  });
  await new Promise<void>((r) => remote.listen(remotePath, r));
});
afterAll(async () => {
  await new Promise((r) => remote.close(r));
  rmSync(remoteDir, { recursive: true, force: true });
});

const toRemote = { open: async () => connect(remotePath) };

function exchange(path: string, payload: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect({ path, allowHalfOpen: true });
    let reply = '';
    s.on('data', (c: Buffer) => (reply += c.toString()));
    s.on('end', () => resolve(reply));
    s.on('error', reject);
    s.end(payload);
  });
}

describe('startLocalForwarder', () => {
  it('carries bytes both ways, half-close included, on a unix:// target in a 0700 dir', async () => {
    const fwd = await startLocalForwarder(toRemote);
    expect(fwd.target).toBe(`unix://${fwd.path}`);
    expect(statSync(dirname(fwd.path)).mode & 0o777).toBe(0o700);
    const big = 'x'.repeat(1 << 20);
    const [a, b] = await Promise.all([exchange(fwd.path, 'hello'), exchange(fwd.path, big)]);
    expect(a).toBe('HELLO');
    expect(b).toBe(big.toUpperCase());
    expect(fwd.lastError()).toBeNull();
    await fwd.close();
    expect(existsSync(dirname(fwd.path))).toBe(false);
  });

  it('closes the local connection and keeps the cause when the remote stream cannot be opened', async () => {
    const cause = new Error('remote socket /var/lib/kubelet/x.sock does not exist');
    const fwd = await startLocalForwarder({ open: () => Promise.reject(cause) });
    const outcome = await new Promise<string>((resolve) => {
      const s = connect(fwd.path);
      s.on('error', (e) => resolve(`error ${e.message}`));
      s.on('close', () => resolve('closed'));
    });
    expect(outcome === 'closed' || outcome.startsWith('error')).toBe(true);
    expect(fwd.lastError()).toBe(cause);
    await fwd.close();
  });

  it('keeps a remote stream failure as the last error and resets the local connection', async () => {
    const fwd = await startLocalForwarder({
      open: async () => {
        const s = connect(remotePath);
        s.once('connect', () => s.destroy(new Error('bridge: sudo: a password is required')));
        return s;
      },
    });
    await new Promise<void>((resolve) => {
      const s = connect(fwd.path);
      s.on('error', () => {});
      s.on('close', () => resolve());
    });
    expect(fwd.lastError()?.message).toBe('bridge: sudo: a password is required');
    await fwd.close();
  });

  it('drops live connections on close', async () => {
    const fwd = await startLocalForwarder(toRemote);
    const s = connect(fwd.path);
    await new Promise((r) => s.once('connect', r));
    const closed = new Promise((r) => s.once('close', r));
    s.on('error', () => {});
    await fwd.close();
    await closed;
    expect(existsSync(fwd.path)).toBe(false);
  });
});
