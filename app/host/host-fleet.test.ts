// The app with many nodes behind one bastion (e2e/harness/fleet-harness: real sshds in network namespaces):
// added in one step from an ssh_config pattern, one login on the bastion for all, groups kept in nodes.json.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFleetHarness, type FleetHarness } from '../../e2e/harness/fleet-harness';
import type { HostListExpansion, NodeInfo, Prompt } from '../contract';
import { pollUntil } from '../testing/poll-until';
import { callerOf } from './testing/drive-host';
import { createHost, type Host } from './host';

const HOSTS = ['worker-1', 'worker-2', 'worker-3', 'worker-4'];
let f: FleetHarness;
let stateDir: string;
const inspectors: Host[] = [];

beforeAll(async () => {
  f = await startFleetHarness({ hosts: HOSTS.map((name) => ({ name })) });
  stateDir = join(mkdtempSync(join(tmpdir(), 'ns-inspector-fleet-')), 'state');
}, 60_000);
afterAll(async () => {
  for (const i of inspectors) await i.close();
  await f?.stop();
});

async function start(options: { stateDir?: string; sshConfigFile?: string } = {}) {
  const inspector = await createHost({ mode: 'browser', stateDir: options.stateDir ?? stateDir, demo: false, sshConfigFile: options.sshConfigFile ?? f.sshConfig });
  inspectors.push(inspector);
  return callerOf(inspector);
}

const freshState = () => join(mkdtempSync(join(tmpdir(), 'ns-inspector-fleet-')), 'state');
const workers = (call: ReturnType<typeof callerOf>) => call<NodeInfo[]>('nodes.addMany', { nodes: HOSTS.map((host) => ({ host, socketPath: f.nodeSocketPath })) });

const allLive = (nodes: NodeInfo[]) => nodes.length === HOSTS.length && nodes.every((n) => n.state.phase === 'live' && n.podCount === 20);

describe('many nodes in the app', () => {
  it('adds every host a pattern matches in one step, opens them all with one bastion login, and keeps their group', async () => {
    const call = await start();
    const expanded = await call<HostListExpansion>('sshHosts.expand', { text: 'worker-*\n# the workers\nworker-1 worker-2\nnomatch-*\n' });
    expect(expanded.hosts).toEqual(HOSTS);
    expect(expanded.problems).toEqual([
      expect.objectContaining({ line: 3, reason: expect.stringContaining('one host per line') }),
      expect.objectContaining({ line: 4, reason: expect.stringContaining("'nomatch-*' matches no Host alias") }),
    ]);

    const before = f.bastion.logins();
    const added = await call<NodeInfo[]>('nodes.addMany', { nodes: expanded.hosts.map((host) => ({ host, socketPath: f.nodeSocketPath, group: 'workers' })) });
    expect(added.map((n) => n.label)).toEqual(HOSTS);
    const live = await pollUntil('every node live', () => call<NodeInfo[]>('nodes.list'), allLive, { timeoutMs: 60_000 });
    expect(live.map((n) => n.spec.kind === 'ssh' && n.spec.group)).toEqual(HOSTS.map(() => 'workers'));
    expect(f.bastion.logins() - before).toBe(1);

    await call('nodes.setGroup', { nodeIds: [live[3]!.id], group: 'canary' });
    // Saved as version 1 always was: an older Nodescope reads each node and passes over the group it does not know.
    const saved = JSON.parse(readFileSync(join(stateDir, 'nodes.json'), 'utf8')) as { version: number; nodes: Record<string, unknown>[] };
    expect(saved.version).toBe(1);
    expect(saved.nodes).toEqual(HOSTS.map((host, i) => ({ host, socketPath: f.nodeSocketPath, group: i === 3 ? 'canary' : 'workers' })));
  }, 90_000);

  it('brings the nodes back with their groups at the next start', async () => {
    await inspectors.shift()!.close();
    const call = await start();
    const back = await pollUntil('every node live again', () => call<NodeInfo[]>('nodes.list'), allLive, { timeoutMs: 60_000 });
    expect(back.map((n) => [n.label, n.spec.kind === 'ssh' && n.spec.group])).toEqual(HOSTS.map((h, i) => [h, i === 3 ? 'canary' : 'workers']));
  }, 90_000);

  it("asks about the bastion's unknown host key once for all the nodes behind it", async () => {
    // The same config, but the bastion's key is not known yet: ssh would ask.
    const unknown = join(f.dir, 'bastion-unknown-app');
    writeFileSync(unknown, '');
    const config = join(f.dir, 'ssh_config-bastion-unknown');
    writeFileSync(config, readFileSync(f.sshConfig, 'utf8').replace('Host bastion\n', `Host bastion\n  UserKnownHostsFile ${unknown}\n  StrictHostKeyChecking ask\n`));
    const call = await start({ stateDir: freshState(), sshConfigFile: config });
    const before = f.bastion.logins();
    await workers(call);
    const asked = await pollUntil('the bastion host key question', () => call<Prompt[]>('prompts.pending'), (p) => p.length > 0);
    expect(asked).toEqual([expect.objectContaining({ kind: 'hostKey', host: f.bastion.address })]);
    await call('prompts.answer', { promptId: asked[0]!.id, answer: { kind: 'hostKey', decision: 'acceptOnce' } });
    await pollUntil('every node live', () => call<NodeInfo[]>('nodes.list'), allLive, { timeoutMs: 60_000 });
    expect(await call<Prompt[]>('prompts.pending')).toEqual([]);
    expect(f.bastion.logins() - before).toBe(1);
  }, 90_000);

  it('opens the other nodes while one host hangs, and says what is wrong with that one', async () => {
    const hung = f.hosts[1]!;
    // A short ConnectTimeout, so the hung host's state says so within the test.
    const config = join(f.dir, 'ssh_config-short-timeout');
    writeFileSync(config, `${readFileSync(f.sshConfig, 'utf8')}  ConnectTimeout 2\n`);
    hung.pause();
    try {
      const call = await start({ stateDir: freshState(), sshConfigFile: config });
      await workers(call);
      const others = (nodes: NodeInfo[]) => nodes.filter((n) => n.label !== hung.name);
      await pollUntil('the other nodes live', () => call<NodeInfo[]>('nodes.list'), (nodes) => others(nodes).every((n) => n.state.phase === 'live' && n.podCount === 20), { timeoutMs: 60_000 });
      const stuck = await pollUntil(
        'the hung node to say why',
        async () => (await call<NodeInfo[]>('nodes.list')).find((n) => n.label === hung.name)!,
        (n) => n.state.phase === 'reconnecting',
        { timeoutMs: 30_000 },
      );
      expect(stuck.state).toMatchObject({ cause: expect.stringContaining(`No SSH answer from ${hung.address}:${hung.port} within 2 s`) });
      expect(stuck.podCount).toBe(0);
    } finally {
      hung.resume();
    }
  }, 90_000);
});
