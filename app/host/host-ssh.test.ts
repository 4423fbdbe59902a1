import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HARNESS_HOST_ALIASES, startSshHarness, type SshHarness } from '../../e2e/harness/ssh-harness';
import type { NodeInfo, Prompt, SshHost } from '../contract';
import { startSimulatedKubelet } from '../sim/kubelet-server';
import { pollUntil } from '../testing/poll-until';
import type { AppEvent } from '../core/app-event';
import { callerOf, driveHost } from './testing/drive-host';
import { createHost, type Host } from './host';

// A real node: OpenSSH on loopback in front of a simulated kubelet on a root-only socket.
let h: SshHarness;
let inspector: Host;
let knownHosts: string;
let events: AppEvent[];
let call: ReturnType<typeof callerOf>;

const node = async (id: string) => (await call<NodeInfo[]>('nodes.list')).find((n) => n.id === id);
const inPhase =
  (phase: NodeInfo['state']['phase']) =>
  (info: NodeInfo | undefined): info is NodeInfo =>
    info?.state.phase === phase;
/** Live with all 40 pods of the simulated kubelet behind sshd. */
const liveWithPods = (info: NodeInfo | undefined): info is NodeInfo => info?.state.phase === 'live' && info.podCount === 40;

beforeAll(async () => {
  h = await startSshHarness({
    startKubelet: async (socketPath) => {
      const sim = await startSimulatedKubelet({ socketPath, pods: 40, seed: 11 });
      return { stop: () => sim.stop() };
    },
  });
  const dir = mkdtempSync(join(tmpdir(), 'ns-inspector-ssh-'));
  knownHosts = join(dir, 'known_hosts');
  const sshConfig = join(dir, 'ssh_config');
  // Nothing of the machine's own ssh setup: no agent, a known_hosts of our own that starts empty.
  writeFileSync(sshConfig, `Host *\n  IdentityAgent none\n  UserKnownHostsFile ${knownHosts}\n  GlobalKnownHostsFile /dev/null\n`);
  inspector = await createHost({ mode: 'browser', stateDir: join(dir, 'state'), demo: false, sshConfigFile: sshConfig });
  ({ events, call } = driveHost(inspector));
}, 120_000);
afterAll(async () => {
  await inspector?.close();
  await h?.stop();
});

describe('inspector with a node over SSH', () => {
  it('asks about the unknown host key, remembers it when told to, and goes live with the pods', async () => {
    const added = await call<NodeInfo>('nodes.add', {
      host: h.host,
      port: h.port,
      user: h.root.name,
      identityFile: h.root.key,
      socketPath: h.socketPath,
      label: 'node-a',
    });
    const waiting = await pollUntil('the host key question', () => node(added.id), inPhase('waitingForUser'));
    expect(waiting.state).toMatchObject({ waitingFor: 'hostKey' });
    const prompt = (await call<Prompt[]>('prompts.pending'))[0]!;
    expect(prompt).toMatchObject({ kind: 'hostKey', nodeId: added.id, port: h.port });
    expect(prompt.kind === 'hostKey' && prompt.fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    expect(events.some((e) => e.name === 'prompt' && e.payload.id === prompt.id)).toBe(true);

    await call('prompts.answer', { promptId: prompt.id, answer: { kind: 'hostKey', decision: 'acceptAndRemember' } });
    await pollUntil('node-a live with its pods', () => node(added.id), liveWithPods);
    expect(events.some((e) => e.name === 'promptClosed' && e.payload.id === prompt.id)).toBe(true);
    expect(readFileSync(knownHosts, 'utf8')).toContain(h.hostKeyLine.split(' ')[1]!);
  });

  it('shows reconnecting when SSH drops, then comes back live by itself', async () => {
    const id = (await call<NodeInfo[]>('nodes.list'))[0]!.id;
    const seen = events.length;
    await h.killConnections();
    await pollUntil('a reconnecting state', () =>
      events.slice(seen).find((e) => e.name === 'nodeState' && e.payload.id === id && e.payload.state.phase === 'reconnecting'),
    );
    const back = await pollUntil('live again', () => node(id), inPhase('live'));
    expect(back.podCount).toBe(40);
  });

  it('asks for the key passphrase again after a wrong one, then reaches the socket through sudo', async () => {
    const added = await call<NodeInfo>('nodes.add', {
      host: h.host,
      port: h.port,
      user: h.operator.name,
      identityFile: h.operator.encryptedKey,
      socketPath: h.socketPath,
      sudo: true,
    });
    const passphrase = async () => {
      await pollUntil('a passphrase question', () => node(added.id), inPhase('waitingForUser'));
      return (await call<Prompt[]>('prompts.pending')).find((p) => p.nodeId === added.id)!;
    };
    const first = await passphrase();
    expect(first).toMatchObject({ kind: 'passphrase', keyPath: h.operator.encryptedKey });
    await call('prompts.answer', { promptId: first.id, answer: { kind: 'secret', value: 'not-the-passphrase' } });
    const second = await passphrase();
    expect(second.id).not.toBe(first.id);
    expect(second.kind === 'passphrase' && second.retryReason).toBeTruthy();
    await call('prompts.answer', { promptId: second.id, answer: { kind: 'secret', value: h.operator.passphrase } });
    await pollUntil('live with the pods through sudo', () => node(added.id), liveWithPods);
    await call('nodes.remove', { nodeId: added.id });
  });

  it('lists the hosts of an ssh_config for the picker and connects through a ProxyJump alias', async () => {
    const viaConfig = await createHost({ mode: 'browser', stateDir: mkdtempSync(join(tmpdir(), 'ns-state-')), demo: false, sshConfigFile: h.sshConfig });
    try {
      const ask = callerOf(viaConfig);
      const hosts = await ask<SshHost[]>('sshHosts.list');
      expect(hosts).toContainEqual(expect.objectContaining({ alias: HARNESS_HOST_ALIASES.target, hostName: h.host, port: h.port, user: h.root.name }));
      expect(hosts.find((x) => x.alias === HARNESS_HOST_ALIASES.viaJump)?.proxyJump).toBe(HARNESS_HOST_ALIASES.jump);
      // The host others jump through is marked as such, not offered as one more node; the others are not.
      expect(hosts.find((x) => x.alias === HARNESS_HOST_ALIASES.jump)?.jumpHostFor).toBeGreaterThanOrEqual(1);
      expect(hosts.find((x) => x.alias === HARNESS_HOST_ALIASES.target)?.jumpHostFor).toBeUndefined();
      // The dialog names the file the app reads, not ~/.ssh/config, when started with --ssh-config.
      expect((await ask<{ sshConfigFile: string }>('app.info')).sshConfigFile).toBe(h.sshConfig);

      const added = await ask<NodeInfo>('nodes.add', { host: HARNESS_HOST_ALIASES.viaJump, socketPath: h.socketPath });
      const live = await pollUntil(
        'live with the pods through the jump host',
        async () => (await ask<NodeInfo[]>('nodes.list')).find((n) => n.id === added.id),
        liveWithPods,
      );
      expect(live.label).toBe(HARNESS_HOST_ALIASES.viaJump);
    } finally {
      await viaConfig.close();
    }
  });

  it('ends in an error naming the cause when the user refuses the host key', async () => {
    // The remembered key is for h.host:h.port; the jump sshd on another port is unknown.
    const added = await call<NodeInfo>('nodes.add', { host: h.host, port: h.jumpPort, user: h.jump.name, identityFile: h.jump.key });
    await pollUntil('the host key question', () => node(added.id), inPhase('waitingForUser'));
    const prompt = (await call<Prompt[]>('prompts.pending')).find((p) => p.nodeId === added.id)!;
    await call('prompts.answer', { promptId: prompt.id, answer: { kind: 'hostKey', decision: 'refuse' } });
    const failed = await pollUntil('an error', () => node(added.id), inPhase('error'));
    expect(failed.state.phase === 'error' && failed.state.cause).toMatch(/host key/i);
    expect(failed.state.phase === 'error' && failed.state.nextStep).not.toBe('');

    // Connecting again after an error starts afresh: the question comes back, once however many
    // connects came at the same time (a double click makes one connection, not two).
    await Promise.all([call('nodes.connect', { nodeId: added.id }), call('nodes.connect', { nodeId: added.id })]);
    await pollUntil('the question again', () => node(added.id), inPhase('waitingForUser'));
    await new Promise((r) => setTimeout(r, 500));
    expect((await call<Prompt[]>('prompts.pending')).filter((p) => p.nodeId === added.id)).toHaveLength(1);
    await call('nodes.remove', { nodeId: added.id });
    expect(await call<Prompt[]>('prompts.pending')).toEqual([]);
  });

  it('refuses a changed host key without asking and says which known_hosts line to remove and how', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ns-changed-key-'));
    // known_hosts remembers another ed25519 key for the node, as after a reinstall or an attack.
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'other')]);
    const stale = join(dir, 'known_hosts');
    writeFileSync(stale, `[${h.host}]:${h.port} ${readFileSync(join(dir, 'other.pub'), 'utf8').split(' ').slice(0, 2).join(' ')}\n`);
    const sshConfig = join(dir, 'ssh_config');
    writeFileSync(sshConfig, `Host *\n  IdentityAgent none\n  UserKnownHostsFile ${stale}\n  GlobalKnownHostsFile /dev/null\n  StrictHostKeyChecking ask\n`);
    const other = await createHost({ mode: 'browser', stateDir: join(dir, 'state'), demo: false, sshConfigFile: sshConfig });
    try {
      const ask = callerOf(other);
      const added = await ask<NodeInfo>('nodes.add', { host: h.host, port: h.port, user: h.root.name, identityFile: h.root.key, socketPath: h.socketPath });
      const { state: failed } = await pollUntil(
        'the changed-key error',
        async () => {
          const info = (await ask<NodeInfo[]>('nodes.list')).find((n) => n.id === added.id);
          // A changed key is refused outright: the user is never asked about it.
          expect(info?.state.phase).not.toBe('waitingForUser');
          return info;
        },
        inPhase('error'),
      );
      expect(await ask<Prompt[]>('prompts.pending')).toEqual([]);
      const shown = failed.phase === 'error' ? `${failed.cause} ${failed.nextStep}` : '';
      expect(shown).toMatch(/CHANGED/);
      expect(shown).toContain(`${stale}:1`);
      expect(failed.phase === 'error' && failed.nextStep).toContain(`ssh-keygen -R "[${h.host}]:${h.port}" -f ${stale}`);
    } finally {
      await other.close();
    }
  });
});
