// The simulated kubelet: generated pods in a store, churn changing them, and the Pods API served on
// UNIX sockets in the shipped shape, the documented shape, or both. Tests and `nodescope sim` start it.
import { resolve } from 'node:path';
import { status as Status } from '@grpc/grpc-js';
import { Churn } from './churn';
import { EncodedPods } from './encoded-pods';
import { PodFaults, type PodFaultCounts } from './pod-faults';
import { PodGenerator } from './pod-generator';
import { PodStore } from './pod-store';
import { type EndpointStats, PodsEndpoint } from './pods-endpoint';
import type { PodsApiShape } from './pods-api-services';
import { startKubeletRest, type KubeletRestOptions, type SimulatedKubeletRest } from './kubelet-rest-server';
import { startPodResourcesEndpoint, type PodResourcesEndpoint } from './pod-resources-server';
import type { SharedTicker } from './shared-ticker';

export interface SimulatedKubeletOptions {
  /** Where to serve `api`; the directory must exist. */
  socketPath: string;
  /** Wire shape served on socketPath; default 'shipped'. */
  api?: PodsApiShape;
  /** Also serve the documented shape here (with api 'shipped'), as one kubelet serving both. */
  documentedSocketPath?: string;
  /** Pods at start; default 110 (the kubelet's default max pods). */
  pods?: number;
  /**
   * The instant (epoch ms) the pods at start are as found at; default now. A fleet gives all its nodes one,
   * or nodes started a minute apart would name their CronJobs' Jobs (and what refers to them) differently.
   */
  podsAsOf?: number;
  seed?: number;
  nodeName?: string;
  /** Store changes per second; default 0 (pods stay as generated until changed by hand). */
  churnPerSecond?: number;
  /** Seed of the churn's changes; default seed + 1. A fleet gives each node its own. */
  churnSeed?: number;
  /** A timer the churn ticks on, shared with other nodes of a fleet; default one of its own. */
  churnTicker?: SharedTicker;
  /** How long after start every call fails with FAILED_PRECONDITION "Kubelet is initializing". */
  initializingMs?: number;
  /** Shared by ListPods and GetPod; default the kubelet's 100 QPS with a burst of 10. */
  rateLimit?: { qps: number; burst: number };
  /** Live events a watcher may fall behind before it is dropped; default the kubelet's 100. */
  watchBufferLimit?: number;
  /**
   * Drop a slow watcher more harshly than the kubelet: nothing held in the transport beyond one message,
   * and the queued events discarded at the drop (watch-pump.ts). For tests that need a drop to happen.
   */
  strictWatchBuffer?: boolean;
  /** Also serve the kubelet's HTTPS API (and optionally its read-only port) on loopback. */
  rest?: KubeletRestOptions;
  /** Also serve the PodResources API on this UNIX socket. */
  podResourcesSocketPath?: string;
  /** Pods served broken on purpose (pod-faults.ts); none by default. */
  faults?: PodFaultCounts;
}

export interface SimulatedKubeletStats {
  shipped?: EndpointStats;
  documented?: EndpointStats;
}

export interface SimulatedKubelet {
  /** The oracle: the true current pods. Apply changes here and every watcher sees them. */
  store: PodStore;
  churn: Churn;
  /** Makes more pods like the initial ones (`fresh(now)` for a just-scheduled pod). */
  generator: PodGenerator;
  nodeName: string;
  /** The socket each shape is served on. */
  sockets: Partial<Record<PodsApiShape, string>>;
  /** The HTTPS API, when asked for. */
  rest?: SimulatedKubeletRest;
  /** The PodResources API, when asked for. */
  podResources?: PodResourcesEndpoint;
  stats(): SimulatedKubeletStats;
  /**
   * As after a kubelet restart: open watches end with UNAVAILABLE, then every call answers
   * FAILED_PRECONDITION "Kubelet is initializing" for `initializingMs`. The pods stay as they are.
   */
  restart(initializingMs?: number): void;
  /** Ends watches with UNAVAILABLE, stops the churn and the servers, and removes the socket files. */
  stop(): Promise<void>;
}

export class SimulatorOptionsError extends Error {
  override name = 'SimulatorOptionsError';
}

function wholeAtLeast(value: number | undefined, min: number, what: string): void {
  if (value !== undefined && !(Number.isInteger(value) && value >= min)) {
    throw new SimulatorOptionsError(`${what} must be a whole number >= ${min}, got ${value}`);
  }
}

function check(options: SimulatedKubeletOptions): void {
  if (!options.socketPath) throw new SimulatorOptionsError('socketPath is required: the UNIX socket to serve the Pods API on');
  if (options.api !== undefined && options.api !== 'shipped' && options.api !== 'documented') {
    throw new SimulatorOptionsError(`api must be 'shipped' or 'documented', got '${String(options.api)}'`);
  }
  if (options.documentedSocketPath !== undefined) {
    if (options.api === 'documented') {
      throw new SimulatorOptionsError('documentedSocketPath adds the documented shape next to the shipped one; with api documented, leave it out');
    }
    if (resolve(options.documentedSocketPath) === resolve(options.socketPath)) {
      throw new SimulatorOptionsError('the shipped and documented shapes need two different socket paths');
    }
  }
  wholeAtLeast(options.pods, 0, 'pods');
  wholeAtLeast(options.seed, 0, 'seed');
  wholeAtLeast(options.churnSeed, 0, 'churnSeed');
  wholeAtLeast(options.initializingMs, 0, 'initializingMs');
  wholeAtLeast(options.watchBufferLimit, 1, 'watchBufferLimit');
  for (const [name, n] of Object.entries(options.faults ?? {})) wholeAtLeast(n, 0, `faults.${name}`);
  if (options.churnPerSecond !== undefined && !(options.churnPerSecond >= 0 && Number.isFinite(options.churnPerSecond))) {
    throw new SimulatorOptionsError(`churnPerSecond must be a number >= 0, got ${options.churnPerSecond}`);
  }
  if (options.rateLimit && !(options.rateLimit.qps > 0 && options.rateLimit.burst >= 1)) {
    throw new SimulatorOptionsError(`rateLimit needs qps > 0 and burst >= 1, got qps ${options.rateLimit.qps}, burst ${options.rateLimit.burst}`);
  }
}

export async function startSimulatedKubelet(options: SimulatedKubeletOptions): Promise<SimulatedKubelet> {
  check(options);
  const seed = options.seed ?? 1;
  const nodeName = options.nodeName ?? 'sim-node';
  const generator = new PodGenerator({ seed, nodeName });
  const now = options.podsAsOf ?? Date.now();
  const store = new PodStore(Array.from({ length: options.pods ?? 110 }, () => generator.existing(now)));
  // The churn draws from its own stream, so changing the rate never changes the initial pods.
  const churn = new Churn(store, {
    seed: options.churnSeed ?? seed + 1,
    perSecond: options.churnPerSecond ?? 0,
    generator,
    ...(options.churnTicker ? { ticker: options.churnTicker } : {}),
  });
  let faults: PodFaults | undefined;
  try {
    faults = options.faults ? PodFaults.choose(store.uids(), options.faults) : undefined;
  } catch (err) {
    throw new SimulatorOptionsError(`faults: ${(err as Error).message}`);
  }
  const encoded = EncodedPods.following(store, faults);
  let readyAt = performance.now() + (options.initializingMs ?? 0);
  const common = {
    store,
    encoded,
    initializing: () => performance.now() < readyAt,
    rateLimit: options.rateLimit ?? { qps: 100, burst: 10 },
    watchBufferLimit: options.watchBufferLimit ?? 100,
    strictWatchBuffer: options.strictWatchBuffer ?? false,
  };

  const wanted: [PodsApiShape, string][] = [[options.api ?? 'shipped', resolve(options.socketPath)]];
  if (options.documentedSocketPath !== undefined) wanted.push(['documented', resolve(options.documentedSocketPath)]);
  const endpoints: PodsEndpoint[] = [];
  let rest: SimulatedKubeletRest | undefined;
  let podResources: PodResourcesEndpoint | undefined;
  const stopServers = () => Promise.all([...endpoints.map((e) => e.stop()), rest?.stop(), podResources?.stop()]);
  try {
    for (const [api, socketPath] of wanted) endpoints.push(await PodsEndpoint.start({ ...common, api, socketPath }));
    if (options.rest) rest = await startKubeletRest(store, nodeName, options.rest, faults);
    if (options.podResourcesSocketPath !== undefined) podResources = await startPodResourcesEndpoint(store, resolve(options.podResourcesSocketPath));
  } catch (err) {
    await stopServers();
    throw err;
  }
  churn.start();

  let stopped: Promise<void> | undefined;
  return {
    store,
    churn,
    generator,
    nodeName,
    sockets: Object.fromEntries(wanted),
    ...(rest ? { rest } : {}),
    ...(podResources ? { podResources } : {}),
    stats: () => Object.fromEntries(endpoints.map((e) => [e.stats().api, e.stats()])),
    restart: (initializingMs = 0) => {
      wholeAtLeast(initializingMs, 0, 'initializingMs');
      readyAt = performance.now() + initializingMs;
      for (const e of endpoints) e.endWatches(Status.UNAVAILABLE, 'kubelet restarted');
    },
    stop: () => {
      stopped ??= (async () => {
        churn.stop();
        await stopServers();
      })();
      return stopped;
    },
  };
}
