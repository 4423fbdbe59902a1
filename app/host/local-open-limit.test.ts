import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeState } from '../contract';
import type { NodeLink } from '../core/node-link';
import { startSimulatedFleet, type SimulatedFleet } from '../sim/simulated-fleet';
import { scriptedPrompter } from '../ssh/testing/ssh-test-kit';
import { createConcurrencyLimit } from '../util/concurrency-limit';
import { openKubeletNodeLink } from './kubelet-node-link';

/**
 * Local sockets (a simulated fleet, Nodescope on the node) open under the app's dial limit as SSH nodes do:
 * a thousand first lists at once stalled the core for seconds and none went live. A socket that takes the
 * connection and never answers hands its slot on, so the others still open; a node that is slow to open
 * but moving keeps its slot, so the opens in flight never outgrow the limit.
 */

/**
 * A socket in front of `target` that hands on the kubelet's answers a little at a time (a loaded link):
 * `accepted` is told each connection made to it.
 */
async function slowLink(path: string, target: string, accepted: () => void): Promise<{ close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    accepted();
    const kubelet = connect(target);
    sockets.add(client).add(kubelet);
    client.pipe(kubelet);
    const pending: Buffer[] = [];
    kubelet.on('data', (chunk: Buffer) => pending.push(chunk));
    // 2 KiB every 10 ms: a list of a hundred pods (~300 KiB) takes over a second, its pods arriving all along.
    const drip = setInterval(() => {
      let budget = 2048;
      while (budget > 0 && pending.length) {
        const chunk = pending.shift()!;
        if (chunk.length > budget) pending.unshift(chunk.subarray(budget));
        client.write(chunk.subarray(0, budget));
        budget -= chunk.length;
      }
    }, 10);
    const end = () => {
      clearInterval(drip);
      client.destroy();
      kubelet.destroy();
    };
    client.on('close', end).on('error', end);
    kubelet.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return {
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
describe('opening many local sockets at once', () => {
  let dir: string;
  let fleet: SimulatedFleet;
  /** Nodes with a hundred pods each, for the slow links. */
  let bigFleet: SimulatedFleet;
  let silent: Server;
  const accepted: Socket[] = [];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'nodescope-open-limit-'));
    fleet = await startSimulatedFleet({ nodes: 6, pods: 5, socketDir: dir });
    bigFleet = await startSimulatedFleet({ nodes: 4, pods: 100, socketDir: dir, namePrefix: 'big-node' });
    silent = createServer((socket) => accepted.push(socket));
    await new Promise<void>((resolve) => silent.listen(join(dir, 'silent.sock'), resolve));
  });
  afterAll(async () => {
    for (const s of accepted) s.destroy();
    await new Promise((resolve) => silent.close(resolve));
    await fleet.stop();
    await bigFleet.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('dials them under the limit, and a node that never answers does not hold back the others', async () => {
    const limit = createConcurrencyLimit(2, { stallMs: 200 });
    const sockets = [join(dir, 'silent.sock'), ...fleet.nodes.map((n) => n.sockets.shipped!)];
    const states = new Map<string, NodeState>();
    let peak = 0;
    const links: NodeLink[] = sockets.map((socketPath) => {
      const link = openKubeletNodeLink(
        {
          nodeId: socketPath,
          spec: { kind: 'unix', socketPath },
          prompter: scriptedPrompter({}),
          events: {
            state: (s) => {
              states.set(socketPath, s);
              peak = Math.max(peak, limit.active());
            },
            reset: () => {},
            change: () => {},
          },
        },
        { localSocket: socketPath, openLimit: limit, metricsIntervalMs: 60_000 },
      );
      peak = Math.max(peak, limit.active());
      return link;
    });
    try {
      await expect.poll(() => fleet.nodes.every((n) => states.get(n.sockets.shipped!)?.phase === 'live')).toBe(true);
      expect(states.get(sockets[0]!)?.phase).toBe('connecting');
      // The silent node went through the limit and, once stalled, was let go of its slot; no healthy node is left
      // holding one. Polled: the healthy nodes may all be live before the silent one's stall time has passed.
      await expect.poll(() => ({ stalled: limit.stalled(), held: limit.active() + limit.waiting() })).toEqual({ stalled: 1, held: 0 });
      expect(peak).toBeLessThanOrEqual(2);
    } finally {
      await Promise.all(links.map((l) => l.close()));
    }
  });

  it('keeps the slot of a node that is slow to open while its pods arrive: never more opening at once than the limit', async () => {
    // Every node takes several stall times to list, its pods arriving all along; the silent one first in line.
    const limit = createConcurrencyLimit(2, { stallMs: 600 });
    const opening = new Set<string>();
    const answered = new Set<string>();
    let peak = 0;
    const links = bigFleet.nodes.map((_, i) => join(dir, `slow-${i}.sock`));
    const proxies = await Promise.all(
      bigFleet.nodes.map((n, i) =>
        slowLink(links[i]!, n.sockets.shipped!, () => {
          if (answered.has(links[i]!)) return;
          opening.add(links[i]!);
          peak = Math.max(peak, opening.size);
        }),
      ),
    );
    const opened: NodeLink[] = [join(dir, 'silent.sock'), ...links].map((socketPath) =>
      openKubeletNodeLink(
        {
          nodeId: socketPath,
          spec: { kind: 'unix', socketPath },
          prompter: scriptedPrompter({}),
          events: {
            state: (s) => {
              if (s.phase === 'connecting') return;
              answered.add(socketPath);
              opening.delete(socketPath);
            },
            reset: () => {},
            change: () => {},
          },
        },
        { localSocket: socketPath, openLimit: limit, metricsIntervalMs: 60_000 },
      ),
    );
    try {
      await expect.poll(() => links.every((l) => answered.has(l))).toBe(true);
      // The silent node handed its slot on; none of the slow ones did, so no more than two of them opened at once.
      expect(limit.stalled()).toBe(1);
      expect(peak).toBeLessThanOrEqual(2);
    } finally {
      await Promise.all(opened.map((l) => l.close()));
      await Promise.all(proxies.map((p) => p.close()));
    }
  });
});
