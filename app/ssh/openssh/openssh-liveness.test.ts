import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSshHarness, type SshHarness } from '../../../e2e/harness/ssh-harness';
import type { NodeState } from '../../contract';
import { openKubeletNodeLink } from '../../host/kubelet-node-link';
import { startSimulatedKubelet } from '../../sim/kubelet-server';
import { pollUntil } from '../../testing/poll-until';
import { openSshConnection, type SshTarget } from '../ssh-connection';
import type { SshError } from '../ssh-errors';
import { scriptedPrompter } from '../testing/ssh-test-kit';
import { startSilentAuthSshd } from '../testing/silent-auth-sshd';
import type { LoginOverrides } from './login-settings';
import { createOpenSshSession } from './openssh-session';

/**
 * Through the user's own ssh, a login that hangs is given up at the connect timeout, and a link that dies
 * is shown silent, given up and re-dialled: as on the built-in transport, against real sshd.
 */

let h: SshHarness;
let dir: string;
/** Takes TCP connections and never sends a byte: no SSH banner. */
let mute: Server;
let mutePort: number;
const muted = new Set<Socket>();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodescope-openssh-liveness-'));
  h = await startSshHarness({ startKubelet: (socketPath) => startSimulatedKubelet({ socketPath, pods: 12, seed: 3 }) });
  mute = createServer((s) => muted.add(s.on('error', () => {})));
  await new Promise<void>((r) => mute.listen(0, '127.0.0.1', r));
  mutePort = (mute.address() as { port: number }).port;
}, 60_000);
afterAll(async () => {
  for (const s of muted) s.destroy();
  mute?.close();
  await h?.stop();
  await rm(dir, { recursive: true, force: true });
});

async function config(name: string, lines: string[]): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, [...lines, '', await readFile(h.sshConfig, 'utf8')].join('\n'));
  return file;
}

/** The first dial of a session to `alias` through ssh, with a 1 s connect timeout unless `limits` say otherwise. */
async function dialFails(alias: string, configFile: string, limits: LoginOverrides = { connectTimeoutMs: 1_000 }): Promise<SshError> {
  const { session } = await createOpenSshSession({ destination: alias, configFile }, { prompter: scriptedPrompter(), ...limits });
  try {
    return (await session.connection().then(() => null, (e: unknown) => e)) as SshError;
  } finally {
    session.close();
  }
}

describe('a login that hangs, through OpenSSH', () => {
  it('gives up a server that takes the TCP connection and never sends a banner', async () => {
    const file = await config('mute.config', ['Host mute', '  HostName 127.0.0.1', `  Port ${mutePort}`, '  User root']);
    const err = await dialFails('mute', file);
    // The built-in transport's words for the same server.
    expect(err).toMatchObject({ code: 'HOST_UNREACHABLE', message: `No SSH answer from 127.0.0.1:${mutePort} within 1 s`, retryable: true });
    expect(err.nextStep).toContain('network path');
  }, 30_000);

  it('gives up a ProxyCommand that never answers, naming it', async () => {
    const file = await config('stuck-proxy.config', ['Host stuck-proxy', '  HostName 127.0.0.1', `  Port ${h.port}`, '  User root', '  ProxyCommand sleep 600']);
    const err = await dialFails('stuck-proxy', file);
    expect(err).toMatchObject({ code: 'HOST_UNREACHABLE', retryable: true });
    expect(err.message).toBe('The ProxyCommand (or ProxyJump) for 127.0.0.1 gave no SSH answer within ConnectTimeout');
    expect(err.nextStep).toContain('ssh -G 127.0.0.1 | grep -i proxy');
  }, 30_000);

  it('gives up an sshd that never answers authentication with the built-in transport\'s words', async () => {
    const silent = await startSilentAuthSshd();
    try {
      const knownHosts = join(dir, 'silent_known_hosts');
      await writeFile(knownHosts, `[${silent.host}]:${silent.port} ${silent.hostKeyLine}\n`);
      const file = await config('silent.config', ['Host silent', `  HostName ${silent.host}`, `  Port ${silent.port}`, '  User root', `  IdentityFile ${h.root.key}`, `  UserKnownHostsFile ${knownHosts}`, '  ConnectTimeout 1']);
      const err = await dialFails('silent', file);
      const target: SshTarget = { host: silent.host, port: silent.port, user: 'root', identityFiles: [h.root.key], identityAgent: 'none', knownHostsFiles: [knownHosts], strictHostKeyChecking: 'yes', proxyJump: [] };
      const builtin = (await openSshConnection(target, { prompter: scriptedPrompter(), connectTimeoutMs: 1_000 }).catch((e: unknown) => e)) as SshError;
      expect(err).toMatchObject({ code: 'HANDSHAKE_TIMEOUT', message: builtin.message, nextStep: builtin.nextStep });
      expect(silent.authRequests()).toBeGreaterThan(0);
      await pollUntil('the hung login to end', () => silent.connections() === 0);
    } finally {
      await silent.stop();
    }
  }, 30_000);
  it('names a login whose authentication stalled, given up by ssh\'s keepalives, as stalled, not as a host that never answered', async () => {
    const silent = await startSilentAuthSshd();
    try {
      const knownHosts = join(dir, 'stalled_known_hosts');
      await writeFile(knownHosts, `[${silent.host}]:${silent.port} ${silent.hostKeyLine}\n`);
      // ssh's keepalives (1 s x 1) end the login long before ConnectTimeout (60 s) would.
      const file = await config('stalled.config', ['Host stalled', `  HostName ${silent.host}`, `  Port ${silent.port}`, '  User root', `  IdentityFile ${h.root.key}`, `  UserKnownHostsFile ${knownHosts}`]);
      const err = await dialFails('stalled', file, { connectTimeoutMs: 60_000, keepaliveIntervalMs: 1_000, keepaliveCountMax: 1 });
      expect(err).toMatchObject({ code: 'HANDSHAKE_TIMEOUT', retryable: true });
      expect(err.message).toBe(`${silent.host}:${silent.port} answered but did not finish the SSH login of root: ssh gave up after ServerAliveInterval × ServerAliveCountMax with no answer (authentication stalled)`);
      expect(err.nextStep).toContain('LoginGraceTime');
      expect(silent.authRequests()).toBeGreaterThan(0);
    } finally {
      await silent.stop();
    }
  }, 30_000);
});

describe('a link that dies, through OpenSSH', () => {
  it('shows the node silent, gives the link up on its keepalives, re-dials and goes live again', async () => {
    // A config of its own: a master of its own, started with these keepalives.
    const sshConfigFile = await config('keepalive.config', ['Host *', '  ServerAliveInterval 1', '  ServerAliveCountMax 3']);
    const states: NodeState[] = [];
    const link = openKubeletNodeLink(
      { nodeId: 'n', spec: { kind: 'ssh', host: 'target', ssh: 'openssh', socketPath: h.socketPath }, prompter: scriptedPrompter(), events: { state: (s) => states.push(s), reset: () => {}, change: () => {} } },
      { sshConfigFile },
    );
    const phase = () => states.at(-1)?.phase;
    try {
      await pollUntil('live', () => phase() === 'live');
      const live = states.length;
      h.pauseConnections();
      await pollUntil('silent', () => phase() === 'silent');
      await pollUntil('given up', () => states.slice(live).some((s) => s.phase === 'reconnecting'));
      h.resumeConnections();
      await pollUntil('live again', () => phase() === 'live');
      const dropped = states.slice(live).find((s) => s.phase === 'reconnecting') as Extract<NodeState, { phase: 'reconnecting' }>;
      expect(dropped.cause).toMatch(/stopped answering keepalives/);
      expect(states.slice(live).map((s) => s.phase)).not.toContain('error');
    } finally {
      h.resumeConnections();
      await link.close();
    }
  }, 60_000);
});
