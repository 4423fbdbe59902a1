/**
 * The `nodescope` CLI as users run it (the build in dist/cli, rebuilt first), each process timed from spawn
 * to exit, the sides interleaved so load from other processes hits them alike:
 * - start: `nodescope --help` and `nodescope pods` on a 10-pod local socket, against `node -e 0`; target
 *   within 3x;
 * - `nodescope export` of 30,000 pods (to /dev/null) against a bare grpc-js ListPods of the same socket
 *   (bare-list-pods.mjs); targets within 2.5x the time and 2x the peak memory.
 * The simulated kubelets run in their own processes, as a node's kubelet does.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCli } from '../scripts/build-cli';
import { interleaved, type Run } from './cli-runs';
import { figure } from './figures';
import { kubeletProcess } from './kubelet-spawn';

const here = dirname(fileURLToPath(import.meta.url));
const nodescope = resolve(here, '..', 'bin', 'nodescope.js');
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function cliBench(): Promise<boolean> {
  await buildCli();
  const dir = await mkdtemp(join(tmpdir(), 'nodescope-cli-bench-'));
  const rssFile = join(dir, 'rss');
  const small = join(dir, 'small.sock');
  const large = join(dir, 'large.sock');
  const kubelets = await Promise.all([kubeletProcess(small, 10, 1), kubeletProcess(large, 30_000, 2)]);
  try {
    console.log('\nCLI: processes from spawn to exit, medians, the sides interleaved');
    const start = await interleaved(
      { node: ['-e', '0'], help: [nodescope, '--help'], pods: [nodescope, 'pods', 'node', '--local', small] },
      15,
      rssFile,
    );
    const node = median(start.node!.map((r) => r.ms));
    let ok = figure('start: nodescope --help', median(start.help!.map((r) => r.ms)), 'ms', { baseline: node, target: { maxRatio: 3 } });
    ok = figure('start: nodescope pods, 10 pods (local socket)', median(start.pods!.map((r) => r.ms)), 'ms', { baseline: node, target: { maxRatio: 3 } }) && ok;

    const exp = await interleaved({ bare: [join(here, 'bare-list-pods.mjs'), large], export: [nodescope, 'export', 'node', '--local', large] }, 5, rssFile);
    const bare = exp.bare!;
    const ours = exp.export!;
    ok = figure('export 30,000 pods (to /dev/null)', median(ours.map((r) => r.ms)), 'ms', { baseline: median(bare.map((r) => r.ms)), target: { maxRatio: 2.5 } }) && ok;
    const mib = (runs: Run[]) => median(runs.map((r) => r.rssKiB)) / 1024;
    ok = figure('export 30,000 pods: peak memory', mib(ours), 'MiB', { baseline: mib(bare), target: { maxRatio: 2 } }) && ok;
    return ok;
  } finally {
    await Promise.all(kubelets.map((k) => k.stop()));
    await rm(dir, { recursive: true, force: true });
  }
}
