// Three nodes behind one bastion that logs in by password, in the app core against a real sshd: the one
// password question names the bastion (not the node that happened to ask first), and removing that node
// hands the question to another node instead of failing the shared login for all of them; a question about
// the bastion's unknown host key alike. On both transports: the built-in one's shared jump connection, and
// OpenSSH's shared jump master with its askpass.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSshHarness, type SshHarness } from '../../e2e/harness/ssh-harness';
import type { NodeInfo, Prompt, SshTransportChoice } from '../contract';
import { startSimulatedKubelet } from '../sim/kubelet-server';
import { pollUntil } from '../testing/poll-until';
import { driveHost } from './testing/drive-host';
import { createHost, type Host } from './host';

let h: SshHarness;
let inspector: Host;
let dir: string;
let call: ReturnType<typeof driveHost>['call'];
const NODES = ['p1', 'p2', 'p3'];

beforeAll(async () => {
  // The harness's target sshd is both the bastion (its password user may open TCP forwards) and, through
  // it, the nodes (root with a key, in front of the simulated kubelet).
  h = await startSshHarness({
    passwordUser: true,
    startKubelet: async (socketPath) => {
      const sim = await startSimulatedKubelet({ socketPath, pods: 5, seed: 7 });
      return { stop: () => sim.stop() };
    },
  });
  dir = mkdtempSync(join(tmpdir(), 'ns-bastion-password-'));
  const sshConfig = join(dir, 'ssh_config');
  writeFileSync(sshConfig, [
    `Host ${NODES.join(' ')}`,
    `  HostName ${h.host}`,
    `  Port ${h.port}`,
    '  User root',
    `  IdentityFile ${h.root.key}`,
    '  ProxyJump bastion',
    'Host bastion',
    `  HostName ${h.host}`,
    `  Port ${h.port}`,
    `  User ${h.passwordUser!.name}`,
    '  IdentityFile /nonexistent',
    'Host *',
    '  IdentitiesOnly yes',
    '  IdentityAgent none',
    `  UserKnownHostsFile ${h.knownHosts}`,
    '  GlobalKnownHostsFile /dev/null',
    '  StrictHostKeyChecking yes',
    '',
  ].join('\n'));
  inspector = await createHost({ mode: 'browser', stateDir: join(dir, 'state'), demo: false, sshConfigFile: sshConfig });
  ({ call } = driveHost(inspector));
}, 120_000);
afterAll(async () => {
  await inspector?.close();
  await h?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const nodes = () => call<NodeInfo[]>('nodes.list');
const passwordPrompts = async () => (await call<Prompt[]>('prompts.pending')).filter((p) => p.kind === 'password');

const TRANSPORTS: SshTransportChoice[] = ['openssh', 'builtin'];

describe.each(TRANSPORTS)('a bastion that asks for a password, shared by three nodes (%s)', (ssh) => {
  it('asks once, naming the bastion; removing the node that was asked hands the question on, and the others go live', async () => {
    const added = new Map<string, string>();
    for (const host of NODES) added.set((await call<NodeInfo>('nodes.add', { host, socketPath: h.socketPath, ssh })).id, host);

    const [first] = await pollUntil('the password question', passwordPrompts, (p) => p.length > 0);
    expect(first).toMatchObject({ kind: 'password', user: h.passwordUser!.name, host: h.host });

    // The node it was asked for goes away: the question is asked again for one still there.
    await call('nodes.remove', { nodeId: first!.nodeId });
    const [again] = await pollUntil('the question handed on', passwordPrompts, (p) => p.length > 0);
    expect(again!.nodeId).not.toBe(first!.nodeId);
    expect([...added.keys()]).toContain(again!.nodeId);
    expect(again).toMatchObject({ kind: 'password', user: h.passwordUser!.name, host: h.host });
    expect(await passwordPrompts()).toHaveLength(1);
    expect((await nodes()).filter((n) => n.state.phase === 'error')).toEqual([]);

    await call('prompts.answer', { promptId: again!.id, answer: { kind: 'secret', value: h.passwordUser!.password } });
    const live = await pollUntil('the two remaining nodes live with their pods', nodes, (list) =>
      list.length === 2 && list.every((n) => n.state.phase === 'live' && n.podCount === 5),
    );
    expect(live.map((n) => added.get(n.id)).sort()).toEqual(NODES.filter((n) => n !== added.get(first!.nodeId)));
    expect(live.map((n) => n.sshClient)).toEqual([ssh, ssh]);
    expect(await call<Prompt[]>('prompts.pending')).toEqual([]);
    for (const n of live) await call('nodes.remove', { nodeId: n.id });
  }, 60_000);

  it("hands on the bastion's host-key question the same way", async () => {
    // A bastion whose key is not known yet (its own empty known_hosts, StrictHostKeyChecking ask), logging in by key.
    const config = join(dir, `host-key-${ssh}.ssh_config`);
    writeFileSync(config, [
      `Host ${NODES.join(' ')}`,
      `  HostName ${h.host}`,
      `  Port ${h.port}`,
      '  User root',
      '  ProxyJump keybastion',
      `  UserKnownHostsFile ${h.knownHosts}`,
      'Host keybastion',
      `  HostName ${h.host}`,
      `  Port ${h.port}`,
      '  User root',
      `  UserKnownHostsFile ${join(dir, `bastion-known-hosts-${ssh}`)}`,
      '  StrictHostKeyChecking ask',
      'Host *',
      `  IdentityFile ${h.root.key}`,
      '  IdentitiesOnly yes',
      '  IdentityAgent none',
      '  GlobalKnownHostsFile /dev/null',
      '  StrictHostKeyChecking yes',
      '',
    ].join('\n'));
    const other = await createHost({ mode: 'browser', stateDir: join(dir, `state-${ssh}`), demo: false, sshConfigFile: config });
    try {
      const { call: ask } = driveHost(other);
      const hostKeyPrompts = async () => (await ask<Prompt[]>('prompts.pending')).filter((p) => p.kind === 'hostKey');
      for (const host of NODES) await ask<NodeInfo>('nodes.add', { host, socketPath: h.socketPath, ssh });
      const [first] = await pollUntil('the host-key question', hostKeyPrompts, (p) => p.length > 0);
      expect(first).toMatchObject({ kind: 'hostKey', host: h.host, port: h.port });
      await ask('nodes.remove', { nodeId: first!.nodeId });
      const [again] = await pollUntil('the question handed on', hostKeyPrompts, (p) => p.length > 0);
      expect(again!.nodeId).not.toBe(first!.nodeId);
      expect(again).toMatchObject({ kind: 'hostKey', host: h.host, port: h.port, fingerprint: first!.kind === 'hostKey' ? first!.fingerprint : '' });
      await ask('prompts.answer', { promptId: again!.id, answer: { kind: 'hostKey', decision: 'acceptAndRemember' } });
      await pollUntil('the two remaining nodes live', () => ask<NodeInfo[]>('nodes.list'), (list) =>
        list.length === 2 && list.every((n) => n.state.phase === 'live' && n.podCount === 5 && n.sshClient === ssh),
      );
      expect(await ask<Prompt[]>('prompts.pending')).toEqual([]);
    } finally {
      await other.close();
    }
  }, 60_000);
});
