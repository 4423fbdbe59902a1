// The app's memory budget over two live nodes (issue 26): two simulated kubelets on unix sockets, each
// changing its pods, read by the host as the app reads them. Their history grows past the least budget
// (64 MiB); the budget is kept over both, what went is said, and every current pod stays.
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIN_MEMORY_BUDGET, type MemoryUsage, type NodeInfo, type Notice } from '../contract';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { pollUntil } from '../testing/poll-until';
import { createHost, type Host } from './host';
import { driveHost } from './testing/drive-host';

/** Two nodes of this many pods hold about 60 MiB: a few seconds of changes take them past the least budget. */
const PODS = 7000;
let dir: string;
const kubelets: SimulatedKubelet[] = [];
let host: Host | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ns-budget-live-'));
  for (const name of ['a', 'b']) {
    kubelets.push(await startSimulatedKubelet({ socketPath: join(dir, `${name}.sock`), pods: PODS, seed: name === 'a' ? 61 : 62, nodeName: `worker-${name}`, churnPerSecond: 100, watchBufferLimit: 100_000 }));
  }
}, 60_000);
afterAll(async () => {
  await host?.close();
  for (const kubelet of kubelets) await kubelet.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('the memory budget over live nodes', () => {
  it('keeps the whole app within the budget over two churning nodes, says what went on both, and keeps every current pod', { timeout: 180_000 }, async () => {
    host = await createHost({
      mode: 'browser',
      stateDir: join(dir, 'state'),
      demo: false,
      // Only the app's budget trims here: no per-pod or per-source limit would first.
      history: { perPod: 100_000, totalBytes: 64 * 1024 ** 3, deletedRetentionMs: 3_600_000 },
      settings: { memoryBudget: MIN_MEMORY_BUDGET },
    });
    const { call } = driveHost(host);
    await call('nodes.addMany', { nodes: ['a', 'b'].map((n) => ({ kind: 'unix', socketPath: join(dir, `${n}.sock`), label: `worker-${n}` })) });

    const dropped = await pollUntil(
      'a notice of versions dropped on both nodes',
      () => call<Notice[]>('notices.list'),
      (notices) => notices.some((n) => /Nodescope dropped [\d,]+ earlier versions? of [\d,]+ pods? on 2 nodes/.test(n.message)),
      { timeoutMs: 150_000 },
    );
    expect(dropped.find((n) => n.message.includes('dropped'))!.message).toMatch(/^To stay within the 64 MiB memory budget/);

    // Once the nodes stop changing and the app has caught up: within the budget, every current pod kept.
    for (const kubelet of kubelets) kubelet.churn.stop();
    const nodes = await pollUntil(
      'both nodes live with every pod',
      () => call<NodeInfo[]>('nodes.list'),
      (list) => list.every((n, i) => n.state.phase === 'live' && n.podCount === kubelets[i]!.store.uids().length),
      { timeoutMs: 120_000 },
    );
    for (const node of nodes) expect(node.historyTrimmed).toBe(true);
    const usage = await call<MemoryUsage>('memory.usage');
    expect(usage).toEqual({ held: expect.any(Number), budget: MIN_MEMORY_BUDGET });
    expect(usage.held).toBeLessThanOrEqual(MIN_MEMORY_BUDGET);
  });
});
