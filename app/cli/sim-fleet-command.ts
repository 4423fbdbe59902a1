/**
 * `nodescope sim --nodes N --socket-dir DIR`: a simulated fleet served from one process
 * (app/sim/simulated-fleet.ts) until interrupted, then every socket removed.
 */
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { workloadKey } from '../fleet/workload-identity';
import { CANARY_ENV, CANARY_IMAGE, HOTFIX_IMAGE, type FleetDriftKind } from '../sim/fleet-drift';
import { SimulatorOptionsError, type SimulatedKubeletOptions } from '../sim/kubelet-server';
import { servicePrefix } from '../sim/pods-api-services';
import { FleetStartAborted, startSimulatedFleet, type FleetDrift, type SimulatedFleet } from '../sim/simulated-fleet';
import { SocketPathError } from '../sim/socket-file';
import { EXIT } from './exit-codes';
import { printError } from './terminal-text';

export interface SimFleetCliOptions {
  nodes: number;
  socketDir: string;
}

/** Options of one node that a fleet does not take (each names one socket, port or fault set). */
const SINGLE_NODE_ONLY = ['socket', 'documented-socket', 'rest-port', 'read-only-port', 'token-file', 'client-cert-dir', 'pod-resources-socket', 'undecodable', 'duplicate-uids', 'empty-uids', 'managed-fields-depth', 'log-dir', 'log-max-size'];

/** `--nodes` and `--socket-dir` from sim's parsed arguments; undefined when neither is given. */
export function fleetOptions(values: Record<string, string | boolean | undefined>): SimFleetCliOptions | undefined {
  const { nodes, 'socket-dir': socketDir } = values;
  if (nodes === undefined && socketDir === undefined) return undefined;
  if (typeof nodes !== 'string') throw new SimulatorOptionsError('--socket-dir DIR needs --nodes N: how many nodes to serve there');
  if (typeof socketDir !== 'string') throw new SimulatorOptionsError('--nodes N needs --socket-dir DIR: the existing folder for the nodes\' sockets');
  const n = Number(nodes);
  if (!Number.isInteger(n) || n < 1 || nodes.trim() === '') throw new SimulatorOptionsError(`--nodes must be a whole number >= 1, got '${nodes}'`);
  const clash = SINGLE_NODE_ONLY.find((name) => values[name] !== undefined) ?? (values.authorizer === 'down' ? 'authorizer' : undefined);
  if (clash) throw new SimulatorOptionsError(`--${clash} is for one node; leave it out with --nodes, or serve one node with --socket PATH`);
  if (values.api === 'both') throw new SimulatorOptionsError('with --nodes, --api is shipped or documented (both needs a second socket per node)');
  return { nodes: n, socketDir };
}

const DRIFT_TEXT: Record<FleetDriftKind, string> = {
  'deployment-image': `image ${HOTFIX_IMAGE}`,
  'daemonset-image': `image ${CANARY_IMAGE}`,
  'deployment-env': `env ${CANARY_ENV.name}=${CANARY_ENV.value} added`,
  'daemonset-missing': 'missing',
};

function driftLine(d: FleetDrift): string {
  const shown = d.nodes.slice(0, 5).join(', ');
  const more = d.nodes.length > 5 ? ` and ${d.nodes.length - 5} more` : '';
  return `    ${workloadKey(d.workload)}: ${DRIFT_TEXT[d.kind]} on ${shown}${more}`;
}

async function checkSocketDir(dir: string): Promise<void> {
  const info = await stat(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') throw new SimulatorOptionsError(`--socket-dir ${dir} does not exist; create it first (mkdir -p ${dir}) or name another folder`);
    throw new SimulatorOptionsError(`cannot use --socket-dir ${dir}: ${err.message}`);
  });
  if (!info.isDirectory()) throw new SimulatorOptionsError(`--socket-dir ${dir} is not a folder; name a folder for the nodes' sockets`);
}

export async function serveFleetUntilSignal(opts: SimulatedKubeletOptions, fleetOpts: SimFleetCliOptions, stopSignal: Promise<NodeJS.Signals>): Promise<number> {
  const socketDir = resolve(fleetOpts.socketDir);
  let fleet: SimulatedFleet;
  // A stop asked for while a thousand nodes start (a minute) ends the start, not only what follows it.
  const starting = new AbortController();
  void stopSignal.then(() => starting.abort());
  try {
    await checkSocketDir(socketDir);
    fleet = await startSimulatedFleet({
      nodes: fleetOpts.nodes,
      socketDir,
      ...(opts.nodeName !== undefined ? { namePrefix: opts.nodeName } : {}),
      ...(opts.api !== undefined ? { api: opts.api } : {}),
      ...(opts.pods !== undefined ? { pods: opts.pods } : {}),
      ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
      ...(opts.churnPerSecond !== undefined ? { churnPerSecond: opts.churnPerSecond } : {}),
      ...(opts.initializingMs !== undefined ? { initializingMs: opts.initializingMs } : {}),
      ...(opts.watchBufferLimit !== undefined ? { watchBufferLimit: opts.watchBufferLimit } : {}),
      ...(opts.strictWatchBuffer ? { strictWatchBuffer: true } : {}),
      signal: starting.signal,
    });
  } catch (err) {
    if (err instanceof FleetStartAborted) {
      console.log(`nodescope sim: stopped on ${await stopSignal} while starting (${err.message}); sockets removed`);
      return EXIT.ok;
    }
    if (err instanceof SocketPathError || err instanceof SimulatorOptionsError) {
      printError(`nodescope sim: ${err.message}`);
      return EXIT.usage;
    }
    throw err;
  }
  const names = fleet.nodes.map((n) => n.nodeName);
  const api = opts.api ?? 'shipped';
  const glob = `unix:${join(socketDir, '*.sock')}`;
  const lines = [
    `nodescope sim: serving ${names.length} nodes of ${opts.pods ?? 110} pods each (seed ${opts.seed ?? 1}), ${names[0]} to ${names[names.length - 1]}`,
    `  ${api} Pods API (${servicePrefix[api]}/*) on unix:${join(socketDir, '<node>.sock')}`,
    `  churn: ${opts.churnPerSecond ?? 0} changes/s on each node; watchers dropped beyond ${opts.watchBufferLimit ?? 100} pending events`,
  ];
  if (opts.initializingMs) lines.push(`  initializing for ${opts.initializingMs / 1000} s after start`);
  lines.push(fleet.drift.length ? '  known drift (nodescope compare finds it):' : '  no drift: too few nodes or pods for it', ...fleet.drift.map(driftLine));
  lines.push(`Read them all: nodescope pods '${glob}', nodescope compare '${glob}'`, 'Stop with Ctrl-C.');
  console.log(lines.join('\n'));

  const received = await stopSignal;
  await fleet.stop();
  const changes = fleet.nodes.reduce((sum, n) => sum + n.churn.applied, 0);
  console.log(`nodescope sim: stopped on ${received} after ${changes} changes on ${names.length} nodes; sockets removed`);
  return EXIT.ok;
}
