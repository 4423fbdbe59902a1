// Many simulated kubelets in one process (`nodescope sim --nodes N`): one socket per node in one folder,
// each node with its own name and churn, all generating the same workloads from one seed, with the known
// drift of fleet-drift.ts between some of them. Their churns tick on one shared timer.
import { join } from 'node:path';
import { workloadKey, type WorkloadId } from '../fleet/workload-identity';
import { applyFleetDrift, fleetDriftOf, type FleetDriftKind } from './fleet-drift';
import { SimulatorOptionsError, startSimulatedKubelet, type SimulatedKubelet, type SimulatedKubeletOptions } from './kubelet-server';
import { SharedTicker } from './shared-ticker';

export interface SimulatedFleetOptions extends Omit<SimulatedKubeletOptions, 'socketPath' | 'documentedSocketPath' | 'nodeName' | 'churnSeed' | 'churnTicker' | 'podsAsOf' | 'rest' | 'podResourcesSocketPath'> {
  nodes: number;
  /** An existing folder; node NAME serves on NAME.sock in it. */
  socketDir: string;
  /** Nodes are named PREFIX-01, PREFIX-02, ... (zero-padded, so they sort in order); default sim-node. */
  namePrefix?: string;
  /** Aborting it while nodes are being started stops those started and rejects with FleetStartAborted. */
  signal?: AbortSignal;
}

/** The fleet was stopped before every node was up (a thousand take a minute); none is left serving. */
export class FleetStartAborted extends Error {
  override name = 'FleetStartAborted';
}

export interface FleetDrift {
  kind: FleetDriftKind;
  workload: WorkloadId;
  /** The nodes that have it, in order. */
  nodes: string[];
}

export interface SimulatedFleet {
  nodes: SimulatedKubelet[];
  socketDir: string;
  /** The drift made, one entry per kind and workload. */
  drift: FleetDrift[];
  /** Stops every node and removes every socket. */
  stop(): Promise<void>;
}

/** The churn's shared tick, as a single node's churn ticks. */
const TICK_MS = 10;

/** The node names of a fleet of `count`, in order. */
export function fleetNodeNames(count: number, prefix = 'sim-node'): string[] {
  const width = Math.max(2, String(count).length);
  return Array.from({ length: count }, (_, i) => `${prefix}-${String(i + 1).padStart(width, '0')}`);
}

export async function startSimulatedFleet(options: SimulatedFleetOptions): Promise<SimulatedFleet> {
  const { nodes: count, socketDir, namePrefix, signal, ...perNode } = options;
  if (!(Number.isInteger(count) && count >= 1)) throw new SimulatorOptionsError(`nodes must be a whole number >= 1, got ${count}`);
  const seed = perNode.seed ?? 1;
  const ticker = new SharedTicker(TICK_MS);
  const podsAsOf = Date.now();
  const nodes: SimulatedKubelet[] = [];
  const drift = new Map<string, FleetDrift>();
  const stop = async () => {
    await Promise.all(nodes.map((n) => n.stop()));
  };
  try {
    for (const [i, nodeName] of fleetNodeNames(count, namePrefix).entries()) {
      if (signal?.aborted) throw new FleetStartAborted(`stopped after ${i} of ${count} nodes had started`);
      // One seed and one instant for every node's pods, so they run the same workloads; each churns on its own stream.
      // Churn waits until every node is up: a thousand nodes generating pods while the first ones churn
      // would take far longer to start.
      const node = await startSimulatedKubelet({ ...perNode, churnPerSecond: 0, seed, podsAsOf, churnSeed: seed + 1 + i, churnTicker: ticker, nodeName, socketPath: join(socketDir, `${nodeName}.sock`) });
      nodes.push(node);
      for (const kind of fleetDriftOf(i + 1)) {
        const workload = applyFleetDrift(node.store, kind);
        if (!workload) continue;
        const key = `${kind} ${workloadKey(workload)}`;
        const entry = drift.get(key) ?? drift.set(key, { kind, workload, nodes: [] }).get(key)!;
        entry.nodes.push(nodeName);
      }
    }
  } catch (err) {
    await stop();
    throw err;
  }
  for (const node of nodes) node.churn.setRate(perNode.churnPerSecond ?? 0);
  return { nodes, socketDir, drift: [...drift.values()], stop };
}
