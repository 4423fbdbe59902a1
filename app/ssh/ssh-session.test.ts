import { createServer, type Socket } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { SshError } from './ssh-errors';
import type { SshPrompter } from './ssh-prompter';
import { DEFAULT_BACKOFF } from './reconnect-backoff';
import { createSshSession, type SessionState } from './ssh-session';
import { closedPort } from './testing/ssh-test-kit';

const prompter: SshPrompter = {
  hostKey: async () => 'refuse',
  passphrase: async () => null,
  keyboardInteractive: async () => null,
};

describe('createSshSession', () => {
  it('backs off between failed dials and publishes when it will retry', async () => {
    const port = await closedPort();
    const session = createSshSession(
      { host: '127.0.0.1', port, user: 'root', identityFiles: [], identityAgent: 'none', knownHostsFiles: [], strictHostKeyChecking: 'yes', proxyJump: [] },
      // The default's bounds with a fifth of each drawn at random (full jitter may draw next to nothing).
      { prompter, backoff: { ...DEFAULT_BACKOFF, jitter: 0.2 } },
    );
    const states: SessionState[] = [];
    session.onState((s) => states.push(s));

    const first = (await session.connection().catch((e: unknown) => e)) as SshError;
    expect(first.code).toBe('HOST_UNREACHABLE');
    const afterFirst = states.at(-1)!;
    expect(afterFirst.state).toBe('reconnecting');
    expect((afterFirst as { inMs: number }).inMs).toBeGreaterThanOrEqual(400);
    expect((afterFirst as { inMs: number }).inMs).toBeLessThanOrEqual(500);

    // The session's clock is faked from here (the dial's refusal is still real I/O): the second dial
    // starts only once the announced wait has run out, not a millisecond before.
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    try {
      const second = session.connection().catch(() => undefined);
      await vi.advanceTimersByTimeAsync(0);
      const announced = states.at(-1)!;
      expect(announced.state).toBe('reconnecting');
      const since = () => states.slice(states.indexOf(announced) + 1).map((s) => s.state);
      await vi.advanceTimersByTimeAsync((announced as { inMs: number }).inMs - 1);
      expect(since()).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      await second;
      expect(since()).toEqual(['connecting', 'reconnecting']);
    } finally {
      vi.useRealTimers();
    }
    const delays = states.filter((s) => s.state === 'reconnecting').map((s) => (s as { inMs: number }).inMs);
    // Announced 0.5 s, waited out what was left of it, then 1 s for the next: each less up to 20 %.
    expect(delays[1]).toBeLessThanOrEqual(delays[0]!);
    expect(delays[2]).toBeGreaterThanOrEqual(800);
    expect(delays[2]).toBeLessThanOrEqual(1000);
    session.close();
  });

  it('stops waiting and refuses new work once closed', async () => {
    const port = await closedPort();
    const session = createSshSession(
      { host: '127.0.0.1', port, user: 'root', identityFiles: [], identityAgent: 'none', knownHostsFiles: [], strictHostKeyChecking: 'yes', proxyJump: [] },
      { prompter, backoff: { initialMs: 60_000, factor: 2, maxMs: 60_000, jitter: 0 } },
    );
    await session.connection().catch(() => undefined);
    // The minute's backoff outlasts the test's own timeout: only the close can end this wait in time.
    const waiting = session.connection().catch((e: unknown) => e);
    session.close();
    expect(((await waiting) as SshError).code).toBe('CLOSED');
    expect(session.state()).toEqual({ state: 'closed' });
    expect(((await session.connection().catch((e: unknown) => e)) as SshError).code).toBe('CLOSED');
  });

  it('drops a dial still in progress when closed, instead of keeping the connection until it times out', async () => {
    // A server that accepts and never speaks: the dial waits for its SSH banner, as it would for a prompt.
    const serverSide: Socket[] = [];
    const silent = createServer((sock) => {
      serverSide.push(sock);
      // Read (and drop) the client's banner, or the hang-up stays queued behind it.
      sock.resume();
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const { port } = silent.address() as { port: number };
    const session = createSshSession(
      { host: '127.0.0.1', port, user: 'root', identityFiles: [], identityAgent: 'none', knownHostsFiles: [], strictHostKeyChecking: 'yes', proxyJump: [] },
      // Ten minutes, past the test's own timeout: only the close can end the dial in time.
      { prompter, connectTimeoutMs: 10 * 60_000 },
    );
    const dialing = session.connection().catch((e: unknown) => e);
    while (serverSide.length === 0) await new Promise((r) => setTimeout(r, 10));
    const hungUp = new Promise<void>((r) => serverSide[0]!.once('close', () => r()));
    session.close();
    expect(((await dialing) as SshError).code).toBe('CLOSED');
    await hungUp;
    silent.close();
  });

  // The session re-dials it (a node being replaced drops out of DNS for a while); the node link stops
  // on it when the node never answered (canPassByWaiting).
  it('reports a host name that does not exist as such, retried by the session', async () => {
    const session = createSshSession(
      { host: 'node-1.nodescope.invalid', port: 22, user: 'root', identityFiles: [], identityAgent: 'none', knownHostsFiles: [], strictHostKeyChecking: 'yes', proxyJump: [] },
      { prompter },
    );
    const err = (await session.connection().catch((e: unknown) => e)) as SshError;
    expect(err.code).toBe('HOST_NOT_FOUND');
    expect(err.permanentUntilLive).toBe(true);
    expect(err.message).toContain('node-1.nodescope.invalid');
    expect(session.state().state).toBe('reconnecting');
    session.close();
  });
});
