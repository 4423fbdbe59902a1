// Many nodes behind one bastion, over real OpenSSH sshds in network namespaces (e2e/harness/fleet-harness):
// one login on the bastion for all of them, one question, one re-dial after a drop, and nodes that hang
// or are cut off never hold back the others.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { descendantsOf } from '../../e2e/harness/process-tree';
import { startFleetHarness, type FleetHarness } from '../../e2e/harness/fleet-harness';
import { createKubeletClient, type KubeletClient } from '../kubelet/kubelet-client';
import { startPodWatch, type PodWatch } from '../kubelet/pod-watch';
import { divergence, eventually } from '../kubelet/testing/oracle';
import { pollUntil } from '../testing/poll-until';
import { createConcurrencyLimit } from '../util/concurrency-limit';
import { openKubeletTransport, type KubeletTransport } from './kubelet-transport';
import { createJumpConnectionPool, type JumpConnectionPool } from './shared-jump-connections';
import { openSshConnection, type SshTarget } from './ssh-connection';
import type { SshError } from './ssh-errors';
import type { SshPrompter } from './ssh-prompter';
import { resolveSshTarget } from './ssh-target';
import { scriptedPrompter } from './testing/ssh-test-kit';

const HOSTS = ['worker-1', 'worker-2', 'worker-3', 'worker-4'];
let f: FleetHarness;
const opened: { transport: KubeletTransport; client: KubeletClient; watch?: PodWatch }[] = [];

beforeAll(async () => {
  f = await startFleetHarness({ hosts: HOSTS.map((name) => ({ name })) });
}, 60_000);
afterEach(async () => {
  for (const { watch, client, transport } of opened.splice(0)) {
    await watch?.close();
    client.close();
    await transport.close();
  }
  for (const h of f.hosts) h.resume();
  await Promise.all(f.hosts.map((h) => h.restoreLink()));
});
afterAll(async () => {
  await f?.stop();
});

const targetOf = (alias: string) => resolveSshTarget(alias, { configFile: f.sshConfig });

interface OpenOptions {
  pool: JumpConnectionPool;
  prompter?: SshPrompter;
  /** Replaces the bastion hop's known_hosts, to make its host key unknown. */
  bastionKnownHosts?: string;
  fast?: boolean;
  /** Told as the login moves on (the open limit's progress). */
  progress?: () => void;
}

async function openNode(alias: string, o: OpenOptions) {
  let target: SshTarget = await targetOf(alias);
  if (o.bastionKnownHosts) target = { ...target, proxyJump: target.proxyJump.map((hop) => ({ ...hop, knownHostsFiles: [o.bastionKnownHosts!], strictHostKeyChecking: 'ask' as const })) };
  const host = f.hosts.find((h) => h.name === alias)!;
  const transport = await openKubeletTransport(target, {
    socketPath: host.nodeSocketPath,
    prompter: o.prompter ?? scriptedPrompter(),
    jumpPool: o.pool,
    ...(o.progress ? { onProgress: o.progress } : {}),
    ...(o.fast ? { connectTimeoutMs: 2_000, keepaliveIntervalMs: 300, keepaliveCountMax: 2, backoff: { initialMs: 100, factor: 2, maxMs: 500, jitter: 0 } } : {}),
  });
  const client = createKubeletClient({ target: transport.open, socketPath: host.nodeSocketPath, transportError: () => transport.lastError() });
  const node: { transport: KubeletTransport; client: KubeletClient; watch?: PodWatch } = { transport, client };
  opened.push(node);
  return node;
}

const bastionSessions = () => descendantsOf(Number(readFileSync(join(f.dir, 'bastion', 'sshd.pid'), 'utf8')));

describe('one shared connection to the bastion (fleet harness)', () => {
  it('keeps the hosts reachable only through the bastion', async () => {
    const target = await targetOf('worker-1');
    const err = (await openSshConnection({ ...target, proxyJump: [], connectTimeout: 2 }, { prompter: scriptedPrompter() }).catch((e: unknown) => e)) as SshError;
    expect(err.code).toBe('HOST_UNREACHABLE');
  });

  it('opens every node with one login on the bastion and asks about its unknown host key once', async () => {
    const knownHosts = join(f.dir, 'bastion-unknown');
    writeFileSync(knownHosts, '');
    const pool = createJumpConnectionPool();
    const prompter = scriptedPrompter({ hostKey: ['once'] });
    const before = f.bastion.logins();
    const nodes = await Promise.all(HOSTS.map((alias) => openNode(alias, { pool, prompter, bastionKnownHosts: knownHosts })));
    const lists = await Promise.all(nodes.map((n) => n.client.listPods()));
    expect(lists.map((l) => l.pods.length)).toEqual(HOSTS.map(() => 20));
    expect(lists.map((l) => l.pods[0]!.pod.spec)).toEqual(HOSTS.map((h) => expect.objectContaining({ nodeName: h })));
    expect(f.bastion.logins() - before).toBe(1);
    expect(prompter.asked.hostKey).toEqual([expect.objectContaining({ host: f.bastion.address, port: 22 })]);
    expect(pool.size()).toBe(1);
  });

  it('fails every node the same way after a refused bastion key, without asking again', async () => {
    const knownHosts = join(f.dir, 'bastion-refused');
    writeFileSync(knownHosts, '');
    const pool = createJumpConnectionPool();
    const prompter = scriptedPrompter({ hostKey: ['refuse'] });
    const limit = createConcurrencyLimit(2);
    // The transport dials on the first call; its lastError is the SSH cause behind the gRPC failure.
    const causes = await Promise.all(
      HOSTS.map((alias) =>
        limit.run(async () => {
          const n = await openNode(alias, { pool, prompter, bastionKnownHosts: knownHosts });
          await expect(n.client.listPods()).rejects.toThrow();
          return n.transport.lastError()?.code;
        }),
      ),
    );
    expect(causes).toEqual(HOSTS.map(() => 'HOST_KEY_REJECTED'));
    expect(prompter.asked.hostKey).toHaveLength(1);
  });

  it('tells every node waiting for the shared bastion login that it moves on, not only the one that dials it', async () => {
    const pool = createJumpConnectionPool();
    const before = f.bastion.logins();
    const { proxyJump } = await targetOf('worker-1');
    const told = HOSTS.map(() => 0);
    const leases = await Promise.all(HOSTS.map((_, i) => pool.acquire(proxyJump, { prompter: scriptedPrompter(), onProgress: () => told[i]!++ })));
    expect(f.bastion.logins() - before).toBe(1);
    expect(told.map((n) => n > 0)).toEqual(HOSTS.map(() => true));
    for (const lease of leases) lease.release();
  });

  it('closes the shared connection when its last node goes', async () => {
    const pool = createJumpConnectionPool();
    await Promise.all(HOSTS.slice(0, 2).map((alias) => openNode(alias, { pool })));
    await Promise.all(opened.map((n) => n.client.listPods()));
    const [first, second] = opened.splice(0);
    first!.client.close();
    await first!.transport.close();
    expect(pool.size()).toBe(1);
    expect(await second!.client.listPods()).toMatchObject({ pods: expect.any(Array) });
    second!.client.close();
    await second!.transport.close();
    expect(pool.size()).toBe(0);
    await pollUntil('the bastion session to end', bastionSessions, (pids) => pids.length === 0, { timeoutMs: 5_000 });
  });

  it('re-establishes a dropped bastion connection once for all the nodes behind it', async () => {
    const pool = createJumpConnectionPool();
    const nodes = await Promise.all(HOSTS.map((alias) => openNode(alias, { pool, fast: true })));
    await Promise.all(nodes.map((n) => n.client.listPods()));
    const before = f.bastion.logins();
    await f.bastion.killConnections();
    for (const n of nodes) {
      await pollUntil('the node to list again', () => n.client.listPods().then((l) => l.pods.length, () => false), { timeoutMs: 15_000 });
    }
    expect(f.bastion.logins() - before).toBe(1);
  });

  it('keeps the other nodes live and updating while one sshd is stopped and another cut off, and says what is wrong with those', async () => {
    const pool = createJumpConnectionPool();
    const nodes = await Promise.all(HOSTS.map((alias) => openNode(alias, { pool, fast: true })));
    for (const n of nodes) n.watch = startPodWatch(n.client, {}, { backoff: { initialMs: 100, factor: 2, maxMs: 500, jitter: 0 } });
    await eventually(() => nodes.every((n) => n.watch!.state().state === 'live'), 'every watch live');

    const [stopped, cut, ...healthy] = f.hosts as [typeof f.hosts[0], typeof f.hosts[0], ...typeof f.hosts];
    stopped.pause();
    await cut.cutLink();
    for (const h of f.hosts) h.kubelet.churn.step(15);
    for (const [i, h] of healthy.entries()) {
      await eventually(() => divergence(nodes[i + 2]!.watch!, h.kubelet).length === 0, `${h.name} to follow 15 changes`, 15_000);
    }
    // The two broken ones notice through keepalives and say why.
    const sessions = nodes.slice(0, 2).map((n) => n.transport.session);
    await pollUntil('both broken nodes to report their cause', () => sessions.map((s) => s.lastError()?.code), (codes) => codes.every(Boolean), { timeoutMs: 15_000 });
    for (const s of sessions) expect(s.lastError()!.message).toMatch(/stopped answering keepalives|got no answer|No SSH answer|could not reach/);
    expect(divergence(nodes[0]!.watch!, stopped.kubelet).length).toBeGreaterThan(0);
    expect(divergence(nodes[1]!.watch!, cut.kubelet).length).toBeGreaterThan(0);
    expect(nodes.slice(2).every((n) => n.watch!.state().state === 'live')).toBe(true);
  });

  it('opens the healthy nodes first when one host hangs and another is unreachable, each failure naming its cause', async () => {
    const [stopped, cut] = f.hosts as [typeof f.hosts[0], typeof f.hosts[0]];
    stopped.pause();
    await cut.cutLink();
    const pool = createJumpConnectionPool();
    // Two slots, the two broken hosts first in line: only the stall hand-off lets the others through. Each
    // tells its progress as the app's nodes do; the broken ones fall silent (no SSH answer) and hand theirs on.
    const limit = createConcurrencyLimit(2, { stallMs: 300 });
    const finished: string[] = [];
    const outcomes = await Promise.all(
      HOSTS.map((alias) =>
        limit.run(async (progress) => {
          const n = await openNode(alias, { pool, fast: true, progress });
          const listed = await n.client.listPods({ arrived: progress }).then((l) => l.pods.length, () => n.transport.lastError());
          finished.push(alias);
          return listed;
        }),
      ),
    );
    expect(finished.slice(0, 2).sort()).toEqual(['worker-3', 'worker-4']);
    expect(outcomes.slice(2)).toEqual(f.hosts.slice(2).map((h) => h.kubelet.store.size));
    const [a, b] = outcomes as [SshError, SshError];
    expect(a.code).toBe('HOST_UNREACHABLE');
    expect(a.message).toBe(`No SSH answer from ${stopped.address}:22 within 2 s`);
    expect(b.code).toBe('HOST_UNREACHABLE');
    expect(b.message).toMatch(new RegExp(`Jump host ${f.bastion.address.replace(/\./g, '\\.')} (got no answer from|could not reach) ${cut.address.replace(/\./g, '\\.')}:22`));
  });
});
