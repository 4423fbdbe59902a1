// `nodescope resources` on this machine's PodResources socket, named as every node command names a socket.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { EXIT } from './exit-codes';
import { nodescope } from './testing/run-nodescope';

const dir = mkdtempSync(join(tmpdir(), 'nodescope-resources-'));
const podResources = join(dir, 'pod-resources.sock');
let sim: SimulatedKubelet;
beforeAll(async () => {
  sim = await startSimulatedKubelet({ socketPath: join(dir, 'pods.sock'), podResourcesSocketPath: podResources, pods: 5, seed: 3 });
});
afterAll(async () => {
  await sim?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('nodescope resources on a local socket', () => {
  it('reads unix:PATH as the socket on this machine, as --local PATH, not as a host name to look up', async () => {
    const local = await nodescope(['resources', '--local', podResources, '-o', 'json']);
    expect(local.code, local.stderr).toBe(EXIT.ok);
    const named = await nodescope(['resources', `unix:${podResources}`, '-o', 'json']);
    expect(named.code, named.stderr).toBe(EXIT.ok);
    expect(named.stdout).toBe(local.stdout);
  });

  it('refuses a snapshot file with exit 2, naming what it needs', async () => {
    const r = await nodescope(['resources', join(dir, 'pods.json')]);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toContain(`resources needs a live node (an ssh destination or unix:SOCKET), not the file ${join(dir, 'pods.json')}`);
  });
});
