// The app with many nodes behind one bastion (e2e/harness/fleet-harness: real sshds in network namespaces):
// added in one step from an ssh_config pattern, one login on the bastion for all, groups kept in nodes.json.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFleetHarness, type FleetHarness } from '../../e2e/harness/fleet-harness';
import type { HostListExpansion, NodeInfo } from '../contract';
import { pollUntil } from '../testing/poll-until';
import { callerOf } from './testing/drive-inspector';
import { createInspector, type Inspector } from './inspector';

const HOSTS = ['worker-1', 'worker-2', 'worker-3', 'worker-4'];
let f: FleetHarness;
let stateDir: string;
const inspectors: Inspector[] = [];

beforeAll(async () => {
  f = await startFleetHarness({ hosts: HOSTS.map((name) => ({ name })) });
  stateDir = join(mkdtempSync(join(tmpdir(), 'ns-inspector-fleet-')), 'state');
}, 60_000);
afterAll(async () => {
  for (const i of inspectors) await i.close();
  await f?.stop();
});

async function start() {
  const inspector = await createInspector({ mode: 'browser', stateDir, demo: false, sshConfigFile: f.sshConfig });
  inspectors.push(inspector);
  return callerOf(inspector);
}

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
});
