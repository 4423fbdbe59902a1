import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { descendantsOf, signal } from '../../e2e/harness/process-tree';
import { startSshHarness, type SshHarness } from '../../e2e/harness/ssh-harness';
import { pollUntil } from '../testing/poll-until';
import { runRemote } from './remote-exec';
import { keepaliveOf, openSshConnection, type SshHop } from './ssh-connection';
import { SshError } from './ssh-errors';
import { createSshSession } from './ssh-session';
import { closedPort, harnessHop, harnessTarget, scriptedPrompter } from './testing/ssh-test-kit';

describe('openSshConnection (real sshd)', () => {
  let h: SshHarness;
  let scratch: string;

  beforeAll(async () => {
    h = await startSshHarness();
    scratch = mkdtempSync(join(tmpdir(), 'ns-conn-'));
  });
  afterAll(async () => {
    rmSync(scratch, { recursive: true, force: true });
    await h?.stop();
  });

  const failure = (p: Promise<unknown>) => p.then(() => { throw new Error('expected a failure'); }, (e: unknown) => e as SshError);

  it('asks for the passphrase of an encrypted key again after a wrong one', async () => {
    const prompter = scriptedPrompter({ passphrases: ['wrong', h.operator.passphrase] });
    const conn = await openSshConnection(harnessTarget(h, { name: h.operator.name, key: h.operator.encryptedKey }), { prompter });
    conn.close();
    expect(prompter.asked.passphrase).toEqual([
      { keyPath: h.operator.encryptedKey, attempt: 1 },
      { keyPath: h.operator.encryptedKey, attempt: 2, retryReason: `Wrong passphrase for ${h.operator.encryptedKey}` },
    ]);
  });

  /** Runs `fn` with a real ssh-agent holding `keys`, in that order. */
  async function withAgent(keys: string[], fn: (sock: string) => Promise<void>): Promise<void> {
    const sock = join(scratch, `agent-${Math.random().toString(36).slice(2)}.sock`);
    const agent: ChildProcess = spawn('ssh-agent', ['-D', '-a', sock], { stdio: 'ignore' });
    try {
      await new Promise<void>((resolve) => {
        const poll = setInterval(() => existsSync(sock) && (clearInterval(poll), resolve()), 20);
      });
      execFileSync('ssh-add', ['-q', ...keys], { env: { ...process.env, SSH_AUTH_SOCK: sock }, stdio: 'ignore' });
      await fn(sock);
    } finally {
      agent.kill();
    }
  }

  it('authenticates with keys held by a real ssh-agent', async () => {
    await withAgent([h.root.key], async (sock) => {
      const conn = await openSshConnection(harnessTarget(h, h.root, { identityFiles: [], identityAgent: sock }), { prompter: scriptedPrompter() });
      conn.close();
    });
  });

  it('with IdentitiesOnly offers only the matching agent key, so a crowded agent stays under MaxAuthTries', async () => {
    const decoys = Array.from({ length: 6 }, (_, i) => {
      const path = join(scratch, `decoy_${i}`);
      execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path]);
      return path;
    });
    await withAgent([...decoys, h.root.key], async (sock) => {
      // Only the public half on disk: the private key lives in the agent alone.
      const pubOnly = `${h.root.key}.pub`;
      const target = harnessTarget(h, h.root, { identityFiles: [pubOnly], identityAgent: sock });
      const crowded = await failure(openSshConnection(target, { prompter: scriptedPrompter() }));
      expect(crowded.code).toBe('AUTH_FAILED');
      expect(crowded.nextStep).toContain('IdentitiesOnly yes');
      const conn = await openSshConnection({ ...target, identitiesOnly: true }, { prompter: scriptedPrompter() });
      conn.close();
    });
  });

  it('moves on to the identity file when the agent socket is dead', async () => {
    const conn = await openSshConnection(harnessTarget(h, h.root, { identityAgent: join(scratch, 'no-agent.sock') }), {
      prompter: scriptedPrompter(),
    });
    conn.close();
  });

  it('names what it tried and skipped when authentication fails', async () => {
    const garbage = join(scratch, 'garbage_key');
    writeFileSync(garbage, 'not a key\n', { mode: 0o600 });
    const err = await failure(
      openSshConnection(harnessTarget(h, { name: h.noSudo.name, key: h.root.key }, { identityFiles: [garbage, h.root.key] }), {
        prompter: scriptedPrompter(),
      }),
    );
    expect(err.code).toBe('AUTH_FAILED');
    expect(err.message).toContain(`${h.noSudo.name}@${h.host}:${h.port}`);
    expect(err.message).toContain(`tried: publickey ${h.root.key}`);
    expect(err.message).toContain(`skipped: ${garbage}:`);
  });

  it('moves on to the next key when asking for a passphrase fails outright', async () => {
    const broken = { ...scriptedPrompter(), passphrase: async () => Promise.reject(new Error('the dialog window was closed')) };
    const conn = await openSshConnection(
      harnessTarget(h, { name: h.operator.name, key: h.operator.key }, { identityFiles: [h.operator.encryptedKey, h.operator.key] }),
      { prompter: broken },
    );
    expect(conn.isOpen()).toBe(true);
    conn.close();
  });

  it('gives up on a declined passphrase without asking again on the next dial', async () => {
    const prompter = scriptedPrompter({ passphrases: [null] });
    const session = createSshSession(harnessTarget(h, { name: h.operator.name, key: h.operator.encryptedKey }), { prompter });
    expect(((await session.connection().catch((e: unknown) => e)) as SshError).code).toBe('AUTH_FAILED');
    expect(session.state()).toMatchObject({ state: 'error', cause: { code: 'AUTH_FAILED' } });
    expect(((await session.connection().catch((e: unknown) => e)) as SshError).code).toBe('AUTH_FAILED');
    expect(prompter.asked.passphrase).toHaveLength(1);
    session.close();
  });

  it('asks about an unknown host with its SHA256 fingerprint, remembers it, and does not ask again', async () => {
    const knownHosts = join(scratch, 'fresh_known_hosts');
    const target = harnessTarget(h, h.root, { knownHostsFiles: [knownHosts], strictHostKeyChecking: 'ask' });
    const first = scriptedPrompter({ hostKey: ['remember'] });
    (await openSshConnection(target, { prompter: first })).close();
    const fingerprint = execFileSync('ssh-keygen', ['-lf', '-'], { input: h.hostKeyLine }).toString().split(' ')[1];
    expect(first.asked.hostKey).toEqual([{ host: h.host, port: h.port, keyType: 'ssh-ed25519', fingerprint }]);
    expect(readFileSync(knownHosts, 'utf8')).toContain(`[${h.host}]:${h.port} ${h.hostKeyLine}`);

    const second = scriptedPrompter();
    (await openSshConnection(target, { prompter: second })).close();
    expect(second.asked.hostKey).toEqual([]);
  });

  it('refuses a changed host key, naming both fingerprints, without asking', async () => {
    const knownHosts = join(scratch, 'changed_known_hosts');
    // The jump host's key recorded for the target: what a reinstalled or impersonated node looks like.
    writeFileSync(knownHosts, `[${h.host}]:${h.port} ${h.jumpHostKeyLine}\n`);
    const prompter = scriptedPrompter({ hostKey: ['once'] });
    const fp = (line: string) => execFileSync('ssh-keygen', ['-lf', '-'], { input: line }).toString().split(' ')[1]!;
    const err = await failure(
      openSshConnection(harnessTarget(h, h.root, { knownHostsFiles: [knownHosts], strictHostKeyChecking: 'ask' }), { prompter }),
    );
    expect(err.code).toBe('HOST_KEY_REJECTED');
    expect(err.message).toContain(fp(h.hostKeyLine));
    expect(err.message).toContain(fp(h.jumpHostKeyLine));
    expect(prompter.asked.hostKey).toEqual([]);
  });

  it('checks the jump host key too', async () => {
    const knownHosts = join(scratch, 'target_only_known_hosts');
    writeFileSync(knownHosts, `[${h.host}]:${h.port} ${h.hostKeyLine}\n`);
    const jump = { ...harnessHop(h, h.jump, h.jumpPort), knownHostsFiles: [knownHosts] };
    const err = await failure(openSshConnection(harnessTarget(h, h.root, { proxyJump: [jump] }), { prompter: scriptedPrompter() }));
    expect(err.code).toBe('HOST_KEY_REJECTED');
    expect(err.message).toContain(`[${h.host}]:${h.jumpPort}`);
  });

  it('shows waiting-for-host-key while the user decides', async () => {
    const knownHosts = join(scratch, 'session_known_hosts');
    const seen: string[] = [];
    const session = createSshSession(harnessTarget(h, h.root, { knownHostsFiles: [knownHosts], strictHostKeyChecking: 'ask' }), {
      prompter: { ...scriptedPrompter(), hostKey: async () => (seen.push(session.state().state), 'once') },
    });
    const states: string[] = [];
    session.onState((s) => states.push(s.state));
    await session.connection();
    session.close();
    expect(seen).toEqual(['waiting-for-host-key']);
    expect(states).toEqual(['connecting', 'waiting-for-host-key', 'connecting', 'connected', 'closed']);
  });

  it('says which host:port refused the connection', async () => {
    const port = await closedPort(h.host);
    const err = await failure(openSshConnection(harnessTarget(h, h.root, { port }), { prompter: scriptedPrompter() }));
    expect(err.code).toBe('HOST_UNREACHABLE');
    expect(err.message).toContain(`${h.host}:${port}`);
  });

  it('chains several jump hosts, each hop authenticated and checked on its own', async () => {
    const jump = harnessHop(h, h.jump, h.jumpPort);
    const conn = await openSshConnection(harnessTarget(h, h.root, { proxyJump: [jump, jump, jump] }), { prompter: scriptedPrompter() });
    const { stdout } = await runRemote(conn.channels, 'id -un');
    conn.close();
    expect(stdout.trim()).toBe('root');
    expect(h.logs().match(/Accepted publickey for nsharness-jump/g)!.length).toBeGreaterThanOrEqual(3);
  });

  it('tells the login moving on as each hop answers, and nothing more once logged in', async () => {
    let told = 0;
    const jump = harnessHop(h, h.jump, h.jumpPort);
    const conn = await openSshConnection(harnessTarget(h, h.root, { proxyJump: [jump] }), { prompter: scriptedPrompter(), onProgress: () => told++ });
    // The jump host's handshake, its channel to the node, the node's handshake: several steps at least.
    expect(told).toBeGreaterThanOrEqual(3);
    const atLogin = told;
    await runRemote(conn.channels, 'id -un');
    conn.close();
    expect(told).toBe(atLogin);
  });

  it('says when the jump host cannot reach the target', async () => {
    const port = await closedPort(h.host);
    const err = await failure(
      openSshConnection(harnessTarget(h, h.root, { port, proxyJump: [harnessHop(h, h.jump, h.jumpPort)] }), {
        prompter: scriptedPrompter(),
      }),
    );
    expect(err.code).toBe('HOST_UNREACHABLE');
    expect(err.message).toContain(`Jump host ${h.host} could not reach ${h.host}:${port}`);
  });

  it('lets go of the jump host at once when cancelled while the jump host is still reaching the target', async () => {
    // A target whose accept queue is full: the jump host's connect to it hangs, as to a dead address.
    const stuck = spawn('python3', ['-c', 'import socket,time\ns=socket.socket()\ns.bind(("127.0.0.1",0))\ns.listen(0)\nprint(s.getsockname()[1],flush=True)\ntime.sleep(60)'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const filler = new Socket();
    try {
      const port = Number(await new Promise<string>((resolve) => stuck.stdout!.once('data', (d: Buffer) => resolve(d.toString()))));
      await new Promise<void>((resolve) => filler.connect(port, '127.0.0.1', resolve));
      const jumpListener = Number(readFileSync(join(h.dir, 'jump', 'sshd.pid'), 'utf8'));
      const abort = new AbortController();
      const opening = openSshConnection(harnessTarget(h, h.root, { port, proxyJump: [harnessHop(h, h.jump, h.jumpPort)] }), {
        prompter: scriptedPrompter(),
        signal: abort.signal,
        // Ten minutes, past the test's own timeout: only the cancel can end this in time.
        connectTimeoutMs: 10 * 60_000,
      });
      // Logged in on the jump host, its forward to the target pending.
      await pollUntil('a session on the jump host', () => descendantsOf(jumpListener).length > 0);
      await new Promise((r) => setTimeout(r, 300));
      abort.abort();
      const err = await failure(opening);
      expect(err.code).toBe('CLOSED');
      expect(err.message).toContain(`Connecting to ${h.host}:${port} was cancelled`);
      await pollUntil('the jump host session gone', () => descendantsOf(jumpListener), (pids) => pids.length === 0);
    } finally {
      filler.destroy();
      stuck.kill();
    }
  });

  // As the operator: root's login shell on this machine runs `pyenv rehash`, and freezing it midway can strand its lock.
  it('notices a dead link through keepalives within seconds', async () => {
    const conn = await openSshConnection(harnessTarget(h, h.operator), {
      prompter: scriptedPrompter(),
      keepaliveIntervalMs: 300,
      keepaliveCountMax: 2,
    });
    const listener = Number(readFileSync(join(h.dir, 'target', 'sshd.pid'), 'utf8'));
    const frozen = descendantsOf(listener);
    expect(frozen.length).toBeGreaterThan(0);
    for (const pid of frozen) signal(pid, 'SIGSTOP');
    try {
      // Nothing else ends a link to a frozen server: without the keepalives this waits past the test's timeout.
      const cause = await conn.closed;
      expect(cause?.code).toBe('KEEPALIVE_TIMEOUT');
    } finally {
      for (const pid of frozen) signal(pid, 'SIGCONT');
    }
  });
});

describe('keepaliveOf', () => {
  const hop: SshHop = { host: 'node-1', port: 22, user: 'root', identityFiles: [], knownHostsFiles: [], strictHostKeyChecking: 'yes' };

  it('gives a link that stops answering up within 15-20 s when ssh_config sets no ServerAliveInterval', () => {
    // ssh2 gives up when the keepalive after ServerAliveCountMax unanswered ones is due: (count + 1) intervals at most.
    const { intervalMs, countMax } = keepaliveOf(hop, {});
    expect([intervalMs * countMax, intervalMs * (countMax + 1)]).toEqual([15_000, 20_000]);
  });

  it('takes ServerAliveInterval and ServerAliveCountMax from ssh_config', () => {
    expect(keepaliveOf({ ...hop, serverAliveInterval: 30, serverAliveCountMax: 5 }, {})).toEqual({ intervalMs: 30_000, countMax: 5 });
  });
});
