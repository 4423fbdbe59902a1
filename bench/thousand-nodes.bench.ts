/**
 * A thousand nodes from one workstation: 1,000 simulated nodes of 110 pods (110,000 pods) served by one
 * simulator process on unix sockets, added at once (nodes.addMany) to a fresh app core in a fresh process.
 * Figures, each against a baseline measured in the same run:
 * - time until every node is live with its pods listed, against one node opened the same way (target ≤ 20x:
 *   the work is 1,000x);
 * - the app's resident memory growth, against the protobuf bytes of the pods it holds (target ≤ 2x), in fleet
 *   mode: past the default "Keep rows only above" (200 nodes) each node keeps rows, not its pods' bytes;
 * - the longest event-loop stall in the core while opening (monitorEventLoopDelay; target ≤ 100 ms);
 * - the fleet matrix (fleet.matrix) over the 1,000 nodes: first build, and a rebuild after a change on every node;
 * - the table over every node (the renderer's PodStore.fleetView, as the table runs it): a new filter and a new
 *   sort over 110,000 rows against the same over one node's 110 rows, per row (target ≤ 3x) and in one pass
 *   (≤ 100 ms).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Client, credentials } from '@grpc/grpc-js';
import { DEFAULT_ROWS_ONLY_ABOVE, handleRequest, type NodeInfo, type PodRowsSnapshot, type RequestResult } from '../app/contract';
import type { WorkloadMatrix } from '../app/fleet/workload-matrix';
import { createHost, type Host } from '../app/host/host';
import { parseFilter } from '../app/pod/view/filter-language';
import { fleetNodeNames } from '../app/sim/simulated-fleet';
import { DEFAULT_OPEN_CONCURRENCY } from '../app/util/concurrency-limit';
import type { SortOrder } from '../renderer/filter/sort-rows';
import { PodStore, type FleetSource } from '../renderer/state/pod-store';
import { figure } from './figures';
import { runIsolated } from './isolated';
import { compareRates, fmt } from './measure';

const NODES = 1000;
const PODS = 110;
/** Single-node openings, for a stable baseline (the median is used). */
const SINGLE_RUNS = 5;
const here = dirname(fileURLToPath(import.meta.url));
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const log = (text: string) => console.error(`  ${text}`);

interface Result {
  oneMs: number[];
  allMs: number;
  /** A bare grpc-js ListPods of every node, DEFAULT_OPEN_CONCURRENCY at once: no client opens all nodes faster. */
  floorMs: number;
  stallMs: number;
  rssGrowth: number;
  protobufBytes: number;
  /** Nodes that kept rows only (fleet mode). */
  rowsOnly: number;
  matrixFirstMs: number;
  matrixRebuildMs: number;
  matrixRows: number;
  table: { name: string; perRowRatio: number; onePassMs: number; smallMs: number }[];
}

/** The simulator's fleet in its own process (fleet-process.ts); `change()` applies one change on every node. */
async function startFleet(socketDir: string): Promise<{ change(): Promise<void>; stop(): Promise<void> }> {
  const proc = spawn(process.execPath, [resolve(here, '../bin/run-ts.js'), resolve(here, 'fleet-process.ts'), socketDir, String(NODES), String(PODS)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let waiting: ((line: string) => void) | null = null;
  let out = '';
  proc.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    for (let nl = out.indexOf('\n'); nl >= 0; nl = out.indexOf('\n')) {
      const line = out.slice(0, nl);
      out = out.slice(nl + 1);
      waiting?.(line);
    }
  });
  const next = (prefix: string) =>
    new Promise<void>((done, fail) => {
      waiting = (line) => line.startsWith(prefix) && done();
      proc.once('exit', (code) => fail(new Error(`the simulated fleet exited (${code})`)));
    });
  await next('ready');
  return {
    change: () => {
      const changed = next('changed');
      proc.stdin.write('change\n');
      return changed;
    },
    stop: () =>
      new Promise<void>((done) => {
        if (proc.exitCode !== null) return done();
        proc.once('exit', () => done());
        proc.kill('SIGTERM');
      }),
  };
}

function valueOf<T>(r: RequestResult): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value as T;
}

interface Opened {
  host: Host;
  ids: string[];
  ms: number;
  stallMs: number;
  /** Pod changes received in batches after the first list, counted from now on. */
  changes(): number;
  close(): Promise<void>;
}

/** A fresh app core with `sockets` added at once; resolves when every node is live with its pods listed. */
async function openAll(sockets: string[]): Promise<Opened> {
  const stateDir = await mkdtemp(join(tmpdir(), 'ns-bench-thousand-'));
  const host = await createHost({ mode: 'browser', stateDir, demo: false });
  const live = new Set<string>();
  const listed = new Set<string>();
  let changes = 0;
  let failure: string | null = null;
  let done!: () => void;
  const allListed = new Promise<void>((r) => (done = r));
  /** Nodes both live and listed, counted as they come: the core's own stall is measured here, not this bench's. */
  let ready = 0;
  const note = (set: Set<string>, other: Set<string>, id: string) => {
    if (set.has(id)) return;
    set.add(id);
    if (other.has(id)) ready++;
  };
  const check = () => (failure || ready === sockets.length) && done();
  host.subscribe((event) => {
    if (event.name === 'podDeltas') {
      // A node's first reset can be empty, sent as it connects; its list comes in the next.
      if (event.payload.reset && event.payload.upserts.length > 0) note(listed, live, event.payload.nodeId);
      else changes += event.payload.upserts.length + event.payload.removals.length;
    } else if (event.name === 'nodeState') {
      const node = event.payload;
      if (node.state.phase === 'live') note(live, listed, node.id);
      if (node.state.phase === 'error') failure ??= `${node.label}: ${node.state.cause}`;
    } else return;
    check();
  });
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const t = performance.now();
  const added = valueOf<NodeInfo[]>(await handleRequest(host.handlers, 'nodes.addMany', { nodes: sockets.map((socketPath) => ({ kind: 'unix', socketPath })) }));
  await allListed;
  const ms = performance.now() - t;
  loop.disable();
  if (failure) throw new Error(`a node failed to open: ${failure}`);
  const close = async () => {
    await host.close();
    await rm(stateDir, { recursive: true, force: true });
  };
  return { host, ids: added.map((n) => n.id), ms, stallMs: loop.max / 1e6, changes: () => changes, close };
}

/** Resolves once `ready()` holds, looking again every 50 ms. */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((r) => setTimeout(r, 50));
}

/** The bytes of one ListPods answer on `socket`, as a stock grpc-js client receives it (no decoding). */
function listPodsBytes(socket: string): Promise<number> {
  const client = new Client(`unix:${socket}`, credentials.createInsecure(), { 'grpc.max_receive_message_length': -1 });
  return new Promise((done, fail) =>
    client.makeUnaryRequest('/v1alpha1.Pods/ListPods', () => Buffer.alloc(0), (b: Buffer) => b, undefined, (err, bytes) => {
      client.close();
      if (err || !bytes) fail(err ?? new Error('no answer'));
      else done(bytes.length);
    }),
  );
}

/** Every socket's ListPods with a stock client, `concurrency` at once, as the app dials them: the time and the bytes. */
async function listAllBytes(sockets: string[], concurrency: number): Promise<{ ms: number; bytes: number }> {
  let next = 0;
  let bytes = 0;
  const t = performance.now();
  const worker = async () => {
    while (next < sockets.length) {
      const n = await listPodsBytes(sockets[next++]!);
      bytes += n;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { ms: performance.now() - t, bytes };
}

/** A new filter, then a new sort, over the table of `sources` as the renderer keeps it; a call is one change of either. */
function tableActions(store: PodStore, sources: FleetSource[]) {
  const filters = [parseFilter('-phase:Succeeded ns:kube-system,default,shop,platform,analytics'), parseFilter('restarts>0')];
  const orders: SortOrder[] = [
    { key: 'restarts', descending: true },
    { key: 'name', descending: false },
  ];
  let f = 0;
  let o = 0;
  store.fleetView(sources, filters[0]!, orders[0]!);
  return {
    filter: () => void store.fleetView(sources, filters[(f = 1 - f)]!, orders[o]!),
    sort: () => void store.fleetView(sources, filters[f]!, orders[(o = 1 - o)]!),
  };
}

function timeOne(fn: () => void): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

export const cases = {
  async thousand(): Promise<Result> {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const socketDir = await mkdtemp(join(tmpdir(), 'ns-bench-fleet-sockets-'));
    log(`starting ${NODES} simulated nodes in one process`);
    const fleet = await startFleet(socketDir);
    try {
      const sockets = fleetNodeNames(NODES).map((name) => join(socketDir, `${name}.sock`));
      // Warm-up: the first opening pays for loading grpc-js and the decoders.
      await (await openAll([sockets[0]!])).close();
      const oneMs: number[] = [];
      for (let i = 0; i < SINGLE_RUNS; i++) {
        const one = await openAll([sockets[i + 1]!]);
        oneMs.push(one.ms);
        await one.close();
      }
      log(`the floor: a bare ListPods of ${NODES} nodes, ${DEFAULT_OPEN_CONCURRENCY} at once`);
      const floor = await listAllBytes(sockets, DEFAULT_OPEN_CONCURRENCY);
      gc();
      const rssBefore = process.memoryUsage().rss;
      log(`opening ${NODES} nodes at once`);
      const all = await openAll(sockets);
      // The host gives memory back after a large list (memory-release.ts): let it, then collect what is garbage.
      await new Promise((r) => setTimeout(r, 2000));
      gc();
      const rssGrowth = process.memoryUsage().rss - rssBefore;
      const listed = valueOf<NodeInfo[]>(await handleRequest(all.host.handlers, 'nodes.list', {}));
      const rowsOnly = listed.filter((n) => n.rowsOnly).length;
      log('building the matrix');
      let t = performance.now();
      const first = valueOf<WorkloadMatrix>(await handleRequest(all.host.handlers, 'fleet.matrix', { nodeIds: all.ids }));
      const matrixFirstMs = performance.now() - t;
      const before = all.changes();
      await fleet.change();
      await until(() => all.changes() - before >= NODES);
      t = performance.now();
      valueOf<WorkloadMatrix>(await handleRequest(all.host.handlers, 'fleet.matrix', { nodeIds: all.ids }));
      const matrixRebuildMs = performance.now() - t;

      log('the table over every node');
      const big = new PodStore();
      const small = new PodStore();
      const sources: FleetSource[] = [];
      for (const [i, id] of all.ids.entries()) {
        const snapshot = valueOf<PodRowsSnapshot>(await handleRequest(all.host.handlers, 'pods.rows', { nodeId: id }));
        const label = fleetNodeNames(NODES)[i]!;
        big.applySnapshot(id, snapshot);
        if (i === 0) small.applySnapshot(id, snapshot);
        sources.push({ id, label });
      }
      await all.close();
      const bigActs = tableActions(big, sources);
      const smallActs = tableActions(small, sources.slice(0, 1));
      const bigRows = sources.reduce((n, s) => n + big.count(s.id), 0);
      const smallRows = small.count(sources[0]!.id);
      const table = (['filter', 'sort'] as const).map((name) => {
        const c = compareRates(bigActs[name], smallActs[name], 1, { sliceMs: 400, pairs: 7 });
        const onePassMs = median(Array.from({ length: 5 }, () => timeOne(bigActs[name])));
        const smallMs = median(Array.from({ length: 5 }, () => timeOne(smallActs[name])));
        // Calls per second, small over big, per row: how much more each row costs in the big table.
        return { name: `${name} ${bigRows.toLocaleString('en-US')} rows`, perRowRatio: 1 / c.ratio / (bigRows / smallRows), onePassMs, smallMs };
      });

      return { oneMs, allMs: all.ms, floorMs: floor.ms, protobufBytes: floor.bytes, stallMs: all.stallMs, rssGrowth, rowsOnly, matrixFirstMs, matrixRebuildMs, matrixRows: first.rows.length, table };
    } finally {
      await fleet.stop();
      await rm(socketDir, { recursive: true, force: true });
    }
  },
};

export async function thousandNodesBench(): Promise<boolean> {
  console.log(`\nthousand nodes: ${NODES} simulated nodes x ${PODS} pods in one simulator process, over unix sockets, opened at once in a fresh app core`);
  const r = runIsolated<Result>('thousand-nodes.bench.ts', 'thousand');
  const one = median(r.oneMs);
  const mib = (bytes: number) => bytes / 1024 / 1024;
  const results = [
    figure(`open ${NODES} nodes to all live`, r.allMs, 'ms', { baseline: one, target: { maxRatio: 20 }, note: `one node: median of ${r.oneMs.map((ms) => fmt(ms)).join(', ')} ms` }),
    // Why ≤ 20x cannot be met here: listing alone, with nothing decoded, is this many times one node's opening.
    figure(`the floor: a bare grpc-js ListPods of ${NODES} nodes, ${DEFAULT_OPEN_CONCURRENCY} at once`, r.floorMs, 'ms', { baseline: one, note: 'baseline: one node opened by the app' }),
    figure(`open ${NODES} nodes against the floor`, r.allMs, 'ms', { baseline: r.floorMs, note: 'what the app adds to receiving the bytes' }),
    figure(`app memory growth, ${NODES} nodes in fleet mode`, mib(r.rssGrowth), 'MiB', {
      baseline: mib(r.protobufBytes),
      target: { maxRatio: 2 },
      note: `baseline: the pods' protobuf bytes; ${r.rowsOnly} of ${NODES} nodes kept rows only (above ${DEFAULT_ROWS_ONLY_ABOVE})`,
    }),
    figure(`longest event-loop stall opening ${NODES}`, r.stallMs, 'ms', { target: { max: 100 } }),
    figure(`matrix of ${NODES} nodes, first build`, r.matrixFirstMs, 'ms', { note: `${r.matrixRows} workloads` }),
    figure(`matrix rebuild after ${NODES} changes`, r.matrixRebuildMs, 'ms', { baseline: r.matrixFirstMs }),
  ];
  for (const t of r.table) {
    results.push(figure(`${t.name}, time per row`, t.perRowRatio, 'x', { baseline: 1, ratio: t.perRowRatio, target: { maxRatio: 3 }, note: 'baseline: per row over one node' }));
    results.push(figure(`${t.name}, one pass`, t.onePassMs, 'ms', { baseline: t.smallMs, target: { max: 100 }, note: 'baseline: one node' }));
  }
  return results.every(Boolean);
}
