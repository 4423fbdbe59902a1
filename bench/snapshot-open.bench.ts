/**
 * Opening a 30,000-pod snapshot, written as `nodescope export` writes it, until its pods are ready, against
 * reading the same file and JSON.parse-ing it whole, each in a fresh process, alternated, in the same run.
 * Targets: within 2x JSON.parse's time, and a peak memory (RSS growth) under 2x the file's size.
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { streamPodBytesAsKubectl } from '../app/pod/kubectl-json';
import { openPodFile } from '../app/snapshot/open-pod-file';
import { benchCorpus } from './corpus';
import { runIsolated } from './isolated';
import { figure } from './figures';
import { fmt } from './measure';

const PODS = 30_000;
const RUNS = 3;
const FILE_ENV = 'NODESCOPE_BENCH_SNAPSHOT';

interface Sample {
  ms: number;
  /** Peak resident memory growth while opening, bytes. */
  peakBytes: number;
  pods: number;
}

/** Peak RSS growth of `fn`, from the process's high-water mark (maxRSS) against the RSS before. */
async function sample(fn: () => Promise<number>): Promise<Sample> {
  const before = process.memoryUsage().rss;
  const t = performance.now();
  const pods = await fn();
  const ms = performance.now() - t;
  return { ms, peakBytes: process.resourceUsage().maxRSS * 1024 - before, pods };
}

export const cases = {
  open: () => sample(async () => {
    const file = await openPodFile(process.env[FILE_ENV]!);
    return file.kind === 'snapshot' ? file.pods.length : -1;
  }),
  parse: () => sample(async () => (JSON.parse(readFileSync(process.env[FILE_ENV]!, 'utf8')) as { items: unknown[] }).items.length),
};

/**
 * The snapshot: the simulator's typical pods, repeated to 30,000 with unique uids. (30,000 of the shared real
 * pods, which include very large ones, make 570 MiB: more than V8's longest string, so JSON.parse cannot read
 * that file at all.)
 */
async function writeSnapshot(path: string): Promise<number> {
  const base = await benchCorpus(200);
  const { decodePod } = await import('../app/pod/decode');
  const { encodePod } = await import('../app/pod/encode');
  const pods = function* () {
    for (let i = 0; i < PODS; i++) {
      const tree = decodePod(base[i % base.length]!).pod;
      const meta = tree.metadata as Record<string, unknown>;
      meta.uid = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      meta.name = `${String(meta.name)}-${i}`;
      yield encodePod(tree);
    }
  };
  const fd = openSync(path, 'w');
  let bytes = 0;
  try {
    streamPodBytesAsKubectl(pods(), (chunk) => {
      for (let off = 0; off < chunk.length; ) off += writeSync(fd, chunk, off);
      bytes += chunk.length;
    });
  } finally {
    closeSync(fd);
  }
  return bytes;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function snapshotOpenBench(): Promise<boolean> {
  const path = join(tmpdir(), `nodescope-bench-snapshot-${process.pid}.json`);
  try {
    const bytes = await writeSnapshot(path);
    process.env[FILE_ENV] = path;
    console.log(`\nsnapshot open: ${PODS.toLocaleString('en-US')} pods as nodescope export writes them, ${fmt(bytes / 1024 / 1024)} MiB; each run in a fresh process, ${RUNS} of each, alternated`);
    const open: Sample[] = [];
    const parse: Sample[] = [];
    for (let i = 0; i < RUNS; i++) {
      parse.push(runIsolated<Sample>('snapshot-open.bench.ts', 'parse'));
      open.push(runIsolated<Sample>('snapshot-open.bench.ts', 'open'));
    }
    if (open.some((s) => s.pods !== PODS) || parse.some((s) => s.pods !== PODS)) throw new Error('snapshot bench: not every pod was read');
    const ratio = median(open.map((s) => s.ms)) / median(parse.map((s) => s.ms));
    const memory = median(open.map((s) => s.peakBytes)) / bytes;
    const parseMs = median(parse.map((s) => s.ms));
    const parsePeak = median(parse.map((s) => s.peakBytes));
    figure('snapshot open: readFile + JSON.parse', parseMs, 'ms', { note: `peak +${fmt(parsePeak / bytes)}x file size` });
    const timeOk = figure('snapshot open: openPodFile to pods ready', median(open.map((s) => s.ms)), 'ms', { baseline: parseMs, ratio, target: { maxRatio: 2 } });
    const memOk = figure('snapshot open: openPodFile peak memory', median(open.map((s) => s.peakBytes)), 'bytes', { baseline: bytes, ratio: memory, target: { maxRatio: 2 }, note: 'baseline: the file size' });
    return timeOk && memOk;
  } finally {
    rmSync(path, { force: true });
  }
}
