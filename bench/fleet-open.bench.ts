/**
 * Opening many nodes in the app: 100 simulated nodes of 110 pods each (11,000 pods), each with its own
 * OpenSSH sshd (the fleet harness on loopback addresses), added in one step (nodes.addMany) to a fresh app
 * core, timed from the request until every node is live with all its pods listed. Once through one
 * bastion (one login there, its channels carrying every node's SSH) and once directly, against one node
 * alone opened the same way in the same run. Target: 100 nodes within 5x of one.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFleetHarness, type FleetHarness } from '../e2e/harness/fleet-harness';
import { handleRequest, type NodeInfo } from '../app/contract';
import { createHost } from '../app/host/host';
import { figure } from './figures';
import { fmt } from './measure';

const NODES = 100;
const PODS = 110;
/** Single-node openings, for a stable baseline (the median is used). */
const SINGLE_RUNS = 5;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Wall time, and this process's CPU time (the app's own share: the sshds are other processes). */
interface Opening {
  ms: number;
  cpuMs: number;
}

/** Adds `hosts` to a fresh app core at once and waits until every one is live with all its pods. */
async function openAll(f: FleetHarness, hosts: string[]): Promise<Opening> {
  const stateDir = await mkdtemp(join(tmpdir(), 'ns-bench-fleet-'));
  const inspector = await createHost({ mode: 'browser', stateDir, demo: false, sshConfigFile: f.sshConfig });
  const listed = new Set<string>();
  let failure: string | null = null;
  let done!: () => void;
  const allListed = new Promise<void>((resolve) => (done = resolve));
  // Live, and its first list of all its pods out: its state comes once, its pods in their own batches.
  const live = new Set<string>();
  const full = new Set<string>();
  inspector.subscribe((event) => {
    if (event.name === 'podDeltas' && event.payload.reset && event.payload.upserts.length === PODS) full.add(event.payload.nodeId);
    else if (event.name === 'nodeState') {
      const node = event.payload;
      if (node.state.phase === 'live') live.add(node.id);
      if (node.state.phase === 'error') failure ??= `${node.label}: ${node.state.cause}`;
    } else return;
    for (const id of full) if (live.has(id)) listed.add(id);
    if (listed.size === hosts.length || failure) done();
  });
  try {
    const cpu = process.cpuUsage();
    const t = performance.now();
    const added = await handleRequest(inspector.handlers, 'nodes.addMany', {
      nodes: hosts.map((host) => ({ host, socketPath: f.hosts.find((h) => host.replace(/^direct-/, '') === h.name)!.socketPath })),
    });
    if (!added.ok) throw new Error(added.error.message);
    await allListed;
    const ms = performance.now() - t;
    const used = process.cpuUsage(cpu);
    if (failure) throw new Error(`a node failed to open: ${failure}`);
    if ((added.value as NodeInfo[]).length !== hosts.length) throw new Error('not every node was added');
    return { ms, cpuMs: (used.user + used.system) / 1000 };
  } finally {
    await inspector.close();
    await rm(stateDir, { recursive: true, force: true });
  }
}

export async function fleetOpenBench(): Promise<boolean> {
  console.log(`\nfleet open: ${NODES} nodes x ${PODS} pods, each its own sshd, added at once in the app core`);
  const f = await startFleetHarness({ isolation: 'loopback', hosts: Array.from({ length: NODES }, (_, i) => ({ name: `node-${i + 1}`, kubelet: { pods: PODS } })) });
  try {
    const names = f.hosts.map((h) => h.name);
    // Warm-up: the first dial pays for loading ssh2 and its crypto.
    await openAll(f, [names[0]!]);
    const single: Opening[] = [];
    for (let i = 0; i < SINGLE_RUNS; i++) single.push(await openAll(f, [names[i]!]));
    const one = median(single.map((o) => o.ms));
    const oneCpu = median(single.map((o) => o.cpuMs));
    const loginsBefore = f.bastion.logins();
    const viaBastion = await openAll(f, names);
    const bastionLogins = f.bastion.logins() - loginsBefore;
    const direct = await openAll(f, names.map((n) => `direct-${n}`));
    const target = { maxRatio: 5 };
    // Every sshd here runs on this machine's few cores, as no real fleet's do: the wall time carries their
    // logins too. The app's own CPU per node says whether the app itself scales with the node count.
    const a = figure(`open ${NODES} nodes via one bastion`, viaBastion.ms, 'ms', { baseline: one, target, note: `${bastionLogins} bastion login(s)` });
    const b = figure(`open ${NODES} nodes directly`, direct.ms, 'ms', { baseline: one, target });
    const c = figure(`app CPU per node, ${NODES} via the bastion`, viaBastion.cpuMs / NODES, 'ms', { baseline: oneCpu, target: { maxRatio: 1.5 } });
    figure(`app CPU per node, ${NODES} directly`, direct.cpuMs / NODES, 'ms', { baseline: oneCpu });
    console.log(`  (one node alone: median of ${SINGLE_RUNS}, ${single.map((o) => fmt(o.ms)).join(', ')} ms)`);
    if (bastionLogins !== 1) throw new Error(`${NODES} nodes behind the bastion made ${bastionLogins} logins there, not 1`);
    return a && b && c;
  } finally {
    await f.stop();
  }
}
