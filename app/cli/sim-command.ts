/**
 * `nodescope sim`: a simulated kubelet serving the node-local Pods API on a UNIX socket, with generated
 * pods and optional churn, until interrupted. For trying Nodescope without a cluster and for tests.
 */
import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { writeFileAtomic } from '../fs/atomic-file';
import type { KubeletRestOptions, SimulatedKubeletRest } from '../sim/kubelet-rest-server';
import { startSimulatedKubelet, SimulatorOptionsError, type SimulatedKubelet, type SimulatedKubeletOptions } from '../sim/kubelet-server';
import type { EndpointStats, PodsMethod } from '../sim/pods-endpoint';
import { SocketPathError } from '../sim/socket-file';
import { servicePrefix } from '../sim/pods-api-services';
import { catchStopSignal } from '../process/stop-signals';
import { EXIT } from './exit-codes';
import { fleetOptions, serveFleetUntilSignal, type SimFleetCliOptions } from './sim-fleet-command';
import { UsageError } from './usage-error';
import { printError } from './terminal-text';

const HELP = `usage: nodescope sim --socket PATH [options]
       nodescope sim --nodes N --socket-dir DIR [options]

Serves generated pods over the kubelet's node-local Pods API on a UNIX socket (mode 0600) until
interrupted (Ctrl-C, SIGTERM, or SIGHUP when its terminal closes), then removes the socket.

options:
  --socket PATH                  the UNIX socket to serve on; its directory must exist
  --nodes N --socket-dir DIR     serve N nodes from this one process, each on DIR/NAME.sock, named
                                 after --node (sim-node-01, sim-node-02, ...): all with the same
                                 workloads (--seed), a known drift on some, each churning on its
                                 own; --api, --pods, --churn, --initializing and --watch-buffer
                                 apply to every node. Read them all with 'unix:DIR/*.sock'
  --api shipped|documented|both  wire shape: shipped (/v1alpha1.Pods, the default), documented
                                 (/Pods, honours x-kubernetes-fieldmask), or both at once
  --documented-socket PATH       the socket for the documented shape (needed with --api both)
  --pods N                       pods at start (default 110)
  --seed N                       seed for the pods and their churn (default 1)
  --churn EVENTS_PER_S           pod changes per second (default 0: pods stay as generated)
  --initializing SECONDS         answer FAILED_PRECONDITION "Kubelet is initializing" for this long
                                 after start (default 0)
  --node NAME                    the node's name (default sim-node)
  --watch-buffer N               live events a watcher may fall behind before it is dropped
                                 (default 100, as the kubelet); events that arrive during a watch's
                                 initial replay count too, so thousands of pods under heavy churn
                                 may need more. As the kubelet's, a watcher that stops reading first
                                 gets what the HTTP/2 window and 64 KiB more hold, then the N queued
                                 events, then RESOURCE_EXHAUSTED "watch client channel closed"
  --strict-watch-buffer          drop such a watcher harder than the kubelet: one message in transit,
                                 and the N queued events discarded at the drop
  --undecodable N                serve N pods whose bytes do not decode (name and uid still read);
                                 in the REST API's /pods their status has the wrong type
  --duplicate-uids N             serve N pods with the uid of another pod
  --empty-uids N                 serve N pods with no uid
  --managed-fields-depth N       serve a pod whose managedFields nest N levels deep
                                 (faulty pods sit between good ones, as a buggy kubelet might send them)
kubelet REST API (HTTPS on 127.0.0.1 with a self-signed serving certificate made at start):
  --rest-port PORT               serve it on this loopback port (0: any free port)
  --read-only-port PORT          also serve the read-only port, plain HTTP without authentication
  --token-file FILE              accept the bearer token in FILE (as user sim-admin)
  --client-cert-dir DIR          write a client certificate and key for user sim-admin into this
                                 existing folder (0600), signed by a client CA the simulator trusts
  --authorizer ok|down           down: authorization fails as when the control plane is unreachable
PodResources API:
  --pod-resources-socket PATH    serve it on this UNIX socket (GPUs, SR-IOV VFs, exclusive CPUs)
container logs:
  --log-dir DIR                  write the pods' CRI log files under DIR as the kubelet lays them out
                                 in /var/log/pods (read them with nodescope logs --local SOCKET
                                 --log-dir DIR, or with --rest-port from /containerLogs); running
                                 containers print every second
  --log-max-size BYTES           rotate a log file at this size, older ones gzipped (default 65536)
  -h, --help`;

/** The user the simulator's token and client certificate authenticate as. */
const SIM_USER = 'sim-admin';

function whole(value: string | undefined, flag: string, min = 0): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || value.trim() === '') throw new UsageError(`${flag} must be a whole number >= ${min}, got '${value}'`);
  return n;
}

function positive(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || value.trim() === '') throw new UsageError(`${flag} must be a number >= 0, got '${value}'`);
  return n;
}

interface SimCliOptions extends SimulatedKubeletOptions {
  logDir?: string;
  logMaxBytes?: number;
  /** `--nodes N --socket-dir DIR`: many nodes (sim-fleet-command.ts). */
  fleet?: SimFleetCliOptions;
  tokenFile?: string;
  clientCertDir?: string;
  authorizerDown?: boolean;
}

function options(argv: string[]): SimCliOptions | 'help' {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      socket: { type: 'string' },
      nodes: { type: 'string' },
      'socket-dir': { type: 'string' },
      api: { type: 'string', default: 'shipped' },
      'documented-socket': { type: 'string' },
      pods: { type: 'string' },
      seed: { type: 'string' },
      churn: { type: 'string' },
      initializing: { type: 'string' },
      node: { type: 'string' },
      'watch-buffer': { type: 'string' },
      'strict-watch-buffer': { type: 'boolean', default: false },
      'rest-port': { type: 'string' },
      'read-only-port': { type: 'string' },
      'token-file': { type: 'string' },
      'client-cert-dir': { type: 'string' },
      authorizer: { type: 'string', default: 'ok' },
      'pod-resources-socket': { type: 'string' },
      undecodable: { type: 'string' },
      'duplicate-uids': { type: 'string' },
      'empty-uids': { type: 'string' },
      'managed-fields-depth': { type: 'string' },
      'log-dir': { type: 'string' },
      'log-max-size': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return 'help';
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  const fleet = fleetOptions(values);
  if (!values.socket && !fleet) throw new UsageError('--socket PATH is required: the UNIX socket to serve the Pods API on (or --nodes N --socket-dir DIR for many nodes)');
  const api = values.api;
  if (api !== 'shipped' && api !== 'documented' && api !== 'both') throw new UsageError(`--api must be shipped, documented or both, got '${api}'`);
  const documentedSocket = values['documented-socket'];
  if (api === 'both' && documentedSocket === undefined) throw new UsageError('--api both needs --documented-socket PATH for the documented shape');
  if (api !== 'both' && documentedSocket !== undefined) throw new UsageError('--documented-socket is only used with --api both');
  const initializingSeconds = positive(values.initializing, '--initializing');
  const restPort = whole(values['rest-port'], '--rest-port');
  const readOnlyPort = whole(values['read-only-port'], '--read-only-port');
  const restFlags = [values['token-file'], values['client-cert-dir'], readOnlyPort].some((v) => v !== undefined) || values.authorizer !== 'ok';
  if (restPort === undefined && restFlags) throw new UsageError('--read-only-port, --token-file, --client-cert-dir and --authorizer need --rest-port');
  if (values.authorizer !== 'ok' && values.authorizer !== 'down') throw new UsageError(`--authorizer must be ok or down, got '${values.authorizer}'`);
  const result: SimCliOptions = {
    socketPath: values.socket ?? '',
    api: api === 'documented' ? 'documented' : 'shipped',
    pods: whole(values.pods, '--pods'),
    seed: whole(values.seed, '--seed'),
    churnPerSecond: positive(values.churn, '--churn'),
    initializingMs: initializingSeconds === undefined ? undefined : Math.round(initializingSeconds * 1000),
    nodeName: values.node,
    watchBufferLimit: whole(values['watch-buffer'], '--watch-buffer', 1),
    strictWatchBuffer: values['strict-watch-buffer'],
  };
  if (documentedSocket !== undefined) result.documentedSocketPath = documentedSocket;
  if (restPort !== undefined) result.rest = { port: restPort, ...(readOnlyPort !== undefined ? { readOnlyPort } : {}) };
  if (values['token-file'] !== undefined) result.tokenFile = values['token-file'];
  if (values['client-cert-dir'] !== undefined) result.clientCertDir = values['client-cert-dir'];
  if (values.authorizer === 'down') result.authorizerDown = true;
  if (values['pod-resources-socket'] !== undefined) result.podResourcesSocketPath = values['pod-resources-socket'];
  if (values['log-dir'] !== undefined) result.logDir = resolve(values['log-dir']);
  // The REST API serves /containerLogs from the same files.
  if (result.rest && result.logDir !== undefined) result.rest.logDir = result.logDir;
  const logMaxBytes = whole(values['log-max-size'], '--log-max-size', 1024);
  if (logMaxBytes !== undefined && result.logDir === undefined) throw new UsageError('--log-max-size needs --log-dir');
  if (logMaxBytes !== undefined) result.logMaxBytes = logMaxBytes;
  const faults = {
    undecodable: whole(values.undecodable, '--undecodable'),
    duplicateUids: whole(values['duplicate-uids'], '--duplicate-uids'),
    emptyUids: whole(values['empty-uids'], '--empty-uids'),
    managedFieldsDepth: whole(values['managed-fields-depth'], '--managed-fields-depth'),
  };
  if (Object.values(faults).some((n) => n)) result.faults = faults;
  if (fleet) result.fleet = fleet;
  return result;
}

/** The folder for the client certificate must exist before anything is served; it is not made for the user. */
async function checkClientCertDir(dir: string): Promise<void> {
  let info;
  try {
    info = await stat(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new SimulatorOptionsError(`--client-cert-dir ${dir} does not exist; create it first (mkdir -p ${dir}) or name another folder`);
    }
    throw new SimulatorOptionsError(`cannot use --client-cert-dir ${dir}: ${(err as Error).message}`);
  }
  if (!info.isDirectory()) throw new SimulatorOptionsError(`--client-cert-dir ${dir} is not a folder; name a folder for client.crt and client.key`);
}

/** Writes the client certificate and key (0600, atomically) into `dir`. */
async function writeClientCertificate(rest: SimulatedKubeletRest, dir: string): Promise<void> {
  const pair = await rest.clientCa.issue(SIM_USER);
  try {
    await writeFileAtomic(join(dir, 'client.crt'), pair.certPem);
    await writeFileAtomic(join(dir, 'client.key'), pair.keyPem);
  } catch (err) {
    throw new SimulatorOptionsError(`cannot write the client certificate into --client-cert-dir ${dir}: ${(err as Error).message}; check that you may write there, or name another folder`);
  }
}

export async function run(argv: string[]): Promise<number> {
  let opts: SimCliOptions | 'help';
  try {
    opts = options(argv);
  } catch (err) {
    printError(`nodescope sim: ${(err as Error).message}\n\n${HELP}`);
    return EXIT.usage;
  }
  if (opts === 'help') {
    console.log(HELP);
    return EXIT.ok;
  }
  // Catch the signals before serving, so an early Ctrl-C still cleans up the socket.
  const signal = catchStopSignal();
  try {
    if (opts.fleet) return await serveFleetUntilSignal(opts, opts.fleet, signal.received);
    return await serveUntilSignal(opts, signal.received);
  } finally {
    signal.release();
  }
}

async function serveUntilSignal(opts: SimCliOptions, stopSignal: Promise<NodeJS.Signals>): Promise<number> {
  let kubelet: SimulatedKubelet | undefined;
  const lines: string[] = [];
  try {
    if (opts.tokenFile !== undefined && opts.rest) {
      const token = (await readFile(opts.tokenFile, 'utf8').catch((err: Error) => {
        throw new SimulatorOptionsError(`cannot read --token-file ${opts.tokenFile}: ${err.message}`);
      })).trim();
      if (!token) throw new SimulatorOptionsError(`--token-file ${opts.tokenFile} is empty`);
      (opts.rest as KubeletRestOptions).tokens = { [token]: SIM_USER };
    }
    if (opts.clientCertDir !== undefined) await checkClientCertDir(opts.clientCertDir);
    kubelet = await startSimulatedKubelet(opts);
    lines.push(`nodescope sim: serving ${kubelet.store.size} pods of node ${kubelet.nodeName} (seed ${opts.seed ?? 1})`);
    for (const [api, socket] of Object.entries(kubelet.sockets)) {
      const note = api === 'documented' ? ', field masks honoured' : '';
      lines.push(`  ${api} Pods API (${servicePrefix[api as keyof typeof servicePrefix]}/*${note}) on unix:${socket}`);
    }
    const { rest } = kubelet;
    if (rest) {
      if (opts.authorizerDown) rest.setAuthorizer('webhook-down');
      lines.push(`  REST API on https://127.0.0.1:${rest.port} (serving certificate SHA-256 ${rest.fingerprint})${rest.readOnlyPort !== undefined ? `, read-only port http://127.0.0.1:${rest.readOnlyPort}` : ''}`);
      if (opts.authorizerDown) lines.push('  authorization fails as with the control plane down (500 Authorization error)');
      if (opts.clientCertDir !== undefined) {
        await writeClientCertificate(rest, opts.clientCertDir);
        lines.push(`  client certificate for ${SIM_USER} in ${join(opts.clientCertDir, 'client.crt')} and client.key`);
      }
    }
  } catch (err) {
    // Nothing is left serving after a failed start: the servers would keep the process alive.
    await kubelet?.stop();
    if (err instanceof SocketPathError || err instanceof SimulatorOptionsError) {
      printError(`nodescope sim: ${err.message}`);
      return EXIT.usage;
    }
    throw err;
  }
  let logs: { stop(): void } | undefined;
  if (opts.logDir !== undefined) {
    const { startSimContainerLogs } = await import('../sim/sim-container-logs');
    try {
      logs = startSimContainerLogs(kubelet.store, { dir: opts.logDir, seed: opts.seed ?? 1, ...(opts.logMaxBytes ? { maxFileBytes: opts.logMaxBytes } : {}) });
    } catch (err) {
      await kubelet.stop();
      printError(`nodescope sim: cannot write container logs into --log-dir ${opts.logDir}: ${(err as Error).message}; check that you may write there, or name another folder`);
      return EXIT.usage;
    }
    lines.push(`  container logs under ${opts.logDir} (/var/log/pods layout)`);
  }
  if (kubelet.podResources) lines.push(`  PodResources API on unix:${kubelet.podResources.socketPath}`);
  lines.push(`  churn: ${kubelet.churn.perSecond} changes/s; watchers dropped beyond ${opts.watchBufferLimit ?? 100} pending events${opts.strictWatchBuffer ? ' (strict: none held in transit, queued events discarded)' : ''}`);
  if (opts.initializingMs) lines.push(`  initializing for ${opts.initializingMs / 1000} s after start`);
  if (opts.faults) lines.push(`  faulty pods: ${Object.entries(opts.faults).filter(([, n]) => n).map(([k, n]) => `${k} ${n}`).join(', ')}`);
  lines.push('Stop with Ctrl-C.');
  console.log(lines.join('\n'));

  const received = await stopSignal;
  logs?.stop();
  await kubelet.stop();
  const served = Object.values(kubelet.stats()).map((s: EndpointStats) => {
    const count = (m: PodsMethod) => Object.values(s.requests[m]).reduce((a, b) => a + b, 0);
    return `${s.api}: ${count('ListPods')} lists, ${count('GetPod')} gets, ${count('WatchPods')} watches, ${s.watchEventsDropped} watchers dropped`;
  });
  console.log(`nodescope sim: stopped on ${received} after ${kubelet.churn.applied} changes (${served.join('; ')}); socket removed`);
  return EXIT.ok;
}
