import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localFileAccess } from '../logs/local-file-access';
import { startSimulatedKubelet } from '../sim/kubelet-server';
import { startSimContainerLogs } from '../sim/sim-container-logs';
import { createPrivateSocketDir } from '../ssh/private-socket-dir';
import { openKubeletNodeLink } from './kubelet-node-link';
import type { LiveNodeSpec, NodeLink, NodeLinkRequest } from '../core/node-link';

/** A node's worth of pods, with changes an operator can watch happen but still read. */
const DEMO_PODS = 300;
const DEMO_CHURN_PER_SECOND = 2;

export interface DemoKubelet {
  /** How the demo node appears in the node list. */
  spec: LiveNodeSpec;
  /** Connects to the simulated kubelet with the same client code a real node uses, minus SSH. */
  openLink(request: NodeLinkRequest): NodeLink;
  close(): Promise<void>;
}

/**
 * The simulated kubelet behind the demo node, serving on a socket in a private (0700) directory so
 * it is the user's alone, like a real node's forwarded socket.
 */
export async function startDemoKubelet(seed = Date.now() % 100_000): Promise<DemoKubelet> {
  const dir = createPrivateSocketDir('demo-kubelet.sock');
  const sim = await startSimulatedKubelet({
    socketPath: dir.socketPath,
    pods: DEMO_PODS,
    churnPerSecond: DEMO_CHURN_PER_SECOND,
    seed,
    nodeName: 'demo-node',
  }).catch((err: unknown) => {
    dir.remove();
    throw err;
  });
  // The simulated containers write their logs in the kubelet's layout, in a folder of the user's own (mkdtemp: 0700).
  let logsDir: string | undefined;
  let logs: ReturnType<typeof startSimContainerLogs> | undefined;
  try {
    logsDir = mkdtempSync(join(tmpdir(), 'nodescope-demo-logs-'));
    // A live file and one rotated per container (about 32 KiB each): a few hundred lines to read, and the
    // whole demo under ~40 MB of temp space however long it runs.
    logs = startSimContainerLogs(sim.store, { dir: logsDir, seed, maxFileBytes: 32 * 1024, maxFiles: 2 });
  } catch (err) {
    // The demo's pods still show; its Logs tab says the logs are missing.
    console.error(`nodescope: the demo node's container logs could not be written: ${(err as Error).message}`);
  }
  const logFiles = logsDir !== undefined && logs ? { access: localFileAccess(), logsDir, sudo: false } : undefined;
  return {
    spec: { kind: 'demo', label: 'Demo node (simulated)' },
    openLink: (request) => {
      const link = openKubeletNodeLink(request, {
        localSocket: dir.socketPath,
        noRest: "The demo node's simulated kubelet is read through the Pods API only, which has no CPU, memory or probe results.",
      });
      return { close: () => link.close(), logFiles: async () => logFiles };
    },
    async close() {
      logs?.stop();
      await sim.stop();
      dir.remove();
      if (logsDir !== undefined) rmSync(logsDir, { recursive: true, force: true });
    },
  };
}
