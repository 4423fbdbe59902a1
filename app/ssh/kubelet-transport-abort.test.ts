// Cancelling openKubeletTransport through its signal, against a real silent TCP listener and real sshd.
import { readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSshHarness, type SshHarness } from '../../e2e/harness/ssh-harness';
import { openKubeletTransport } from './kubelet-transport';
import { SshError } from './ssh-errors';
import type { SshTarget } from './ssh-connection';
import { harnessTarget, roundTrip, scriptedPrompter, startEchoSocket } from './testing/ssh-test-kit';

/** The private socket directories this process holds (see private-socket-dir.ts for where they go). */
function privateSocketDirs(): string[] {
  const bases = [...new Set([process.env.XDG_RUNTIME_DIR, tmpdir(), '/tmp'].filter((b): b is string => !!b))];
  return bases.flatMap((base) => {
    try {
      return readdirSync(base).filter((n) => n.startsWith(`nodescope-${process.pid}-`)).map((n) => join(base, n));
    } catch {
      return [];
    }
  });
}

/** Settles with the rejection (or the transport). */
async function outcome<T>(p: Promise<T>): Promise<unknown> {
  return p.then((v) => v, (e: unknown) => e);
}

const until = async (check: () => boolean, what: string, ms = 5000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('openKubeletTransport cancelled while the SSH dial hangs', () => {
  // Accepts and never speaks: the dial waits for an SSH banner that does not come (until the 20 s connect timeout).
  let server: Server;
  let port: number;
  const accepted: { socket: Socket; closed: boolean }[] = [];

  beforeAll(async () => {
    server = createServer((socket) => {
      const entry = { socket, closed: false };
      socket.on('error', () => {});
      // Read (and drop) the client's banner, or the hang-up stays queued behind it.
      socket.resume();
      socket.on('close', () => (entry.closed = true));
      accepted.push(entry);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
  });
  afterEach(() => {
    for (const a of accepted) a.socket.destroy();
    accepted.length = 0;
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
  });

  const silentTarget = (): SshTarget => ({
    host: '127.0.0.1',
    port,
    user: 'root',
    identityFiles: [],
    identityAgent: 'none',
    knownHostsFiles: [],
    strictHostKeyChecking: 'yes',
    proxyJump: [],
  });

  it('rejects at once with a cancelled error and drops the TCP connection', async () => {
    const abort = new AbortController();
    // No socket path: finding the socket dials the node now. The connect timeout of ten minutes outlasts
    // the test's own, so only the abort can end the dial in time.
    const opening = openKubeletTransport(silentTarget(), { prompter: scriptedPrompter(), signal: abort.signal, connectTimeoutMs: 10 * 60_000 });
    await until(() => accepted.length === 1, 'the dial to reach the listener');
    await new Promise((r) => setTimeout(r, 100));
    abort.abort();
    const value = await outcome(opening);
    expect(value).toBeInstanceOf(SshError);
    expect((value as SshError).code).toBe('CLOSED');
    expect((value as SshError).message).toBe(`Connecting to 127.0.0.1:${port} was cancelled`);
    await until(() => accepted[0]!.closed, 'the listener to see the connection closed');
    expect(privateSocketDirs()).toEqual([]);
  });

  it('does not dial at all with a signal that was aborted already', async () => {
    const abort = new AbortController();
    abort.abort();
    const err = await openKubeletTransport(silentTarget(), { prompter: scriptedPrompter(), signal: abort.signal }).catch((e: unknown) => e);
    expect((err as SshError).code).toBe('CLOSED');
    await new Promise((r) => setTimeout(r, 100));
    expect(accepted).toHaveLength(0);
  });
});

describe('openKubeletTransport cancelled at a host key question (real sshd)', () => {
  let h: SshHarness;
  beforeAll(async () => {
    h = await startSshHarness({ startKubelet: startEchoSocket });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('rejects on abort while the question is unanswered and leaves no private socket directory', async () => {
    const emptyKnownHosts = join(h.dir, 'abort_empty_known_hosts');
    writeFileSync(emptyKnownHosts, '');
    const asked: unknown[] = [];
    // A user who never answers.
    const prompter = { ...scriptedPrompter(), hostKey: (info: unknown) => (asked.push(info), new Promise<never>(() => {})) };
    const abort = new AbortController();
    const opening = openKubeletTransport(harnessTarget(h, h.root, { knownHostsFiles: [emptyKnownHosts], strictHostKeyChecking: 'ask' }), {
      prompter,
      signal: abort.signal,
    });
    await until(() => asked.length === 1, 'the host key question');
    // The question is never answered: only the abort can end the opening before the test's timeout.
    abort.abort();
    const value = await outcome(opening);
    expect((value as SshError).code).toBe('CLOSED');
    expect(privateSocketDirs()).toEqual([]);
  });

  it('has no effect once the transport is returned: it keeps working until close()', async () => {
    const abort = new AbortController();
    // Found by probing, so the signal was listened to over a real dial.
    const t = await openKubeletTransport(harnessTarget(h, h.root), { socketCandidates: [h.socketPath], prompter: scriptedPrompter(), signal: abort.signal });
    try {
      abort.abort();
      expect(await roundTrip(t.open, 'still here')).toBe('still here');
      expect(t.session.state()).toEqual({ state: 'connected' });
    } finally {
      await t.close();
    }
    expect(privateSocketDirs()).toEqual([]);
  });
});
