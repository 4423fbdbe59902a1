import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
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
 * connection and never answers hands its slot on, so the others still open.
 */
describe('opening many local sockets at once', () => {
  let dir: string;
  let fleet: SimulatedFleet;
  let silent: Server;
  const accepted: Socket[] = [];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'nodescope-open-limit-'));
    fleet = await startSimulatedFleet({ nodes: 6, pods: 5, socketDir: dir });
    silent = createServer((socket) => accepted.push(socket));
    await new Promise<void>((resolve) => silent.listen(join(dir, 'silent.sock'), resolve));
  });
  afterAll(async () => {
    for (const s of accepted) s.destroy();
    await new Promise((resolve) => silent.close(resolve));
    await fleet.stop();
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
});
