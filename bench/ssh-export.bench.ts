/**
 * `nodescope export` of a 30,000-pod node (to /dev/null) as users run it (the CLI build, each process timed
 * from spawn to exit), over the OpenSSH transport against the built-in one and against the socket directly
 * (`--local`), on loopback with the test harness's sshd and a simulated kubelet in its own process, the sides
 * interleaved. Target: OpenSSH within 1.1x of the built-in transport. Each run over OpenSSH rides the master
 * the first one left (ControlPersist, as a user's runs in a row do); each built-in run logs in afresh, as
 * the built-in client always does.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HARNESS_HOST_ALIASES, startSshHarness } from '../e2e/harness/ssh-harness';
import { buildCli } from '../scripts/build-cli';
import { interleaved, type Run } from './cli-runs';
import { figure } from './figures';
import { kubeletProcess } from './kubelet-spawn';
import { privateMasters } from './private-masters';

const here = dirname(fileURLToPath(import.meta.url));
const nodescope = resolve(here, '..', 'bin', 'nodescope.js');
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const PODS = 30_000;

export async function sshExportBench(): Promise<boolean> {
  await buildCli();
  const dir = await mkdtemp(join(tmpdir(), 'nodescope-ssh-export-'));
  // The master this bench's runs share is ended at its end, not left for ControlPersist.
  const masters = await privateMasters();
  const h = await startSshHarness({ startKubelet: (socketPath) => kubeletProcess(socketPath, PODS, 2) });
  try {
    console.log(`\nexport over SSH: nodescope export of ${PODS.toLocaleString('en-US')} pods, processes from spawn to exit, medians, the sides interleaved`);
    const overSsh = (ssh: string) => [nodescope, 'export', HARNESS_HOST_ALIASES.target, '-F', h.sshConfig, '--ssh', ssh, '--socket', h.socketPath];
    const runs = await interleaved(
      { direct: [nodescope, 'export', 'node', '--local', h.socketPath], builtin: overSsh('builtin'), openssh: overSsh('openssh') },
      5,
      join(dir, 'rss'),
      { env: { XDG_RUNTIME_DIR: masters.runtimeDir }, expectedStderr: /^nodescope: reading \S+ from the Pods API socket / },
    );
    const ms = (side: string) => median(runs[side]!.map((r: Run) => r.ms));
    const mib = (side: string) => median(runs[side]!.map((r: Run) => r.rssKiB)) / 1024;
    const ok = figure(`export ${PODS.toLocaleString('en-US')} pods: OpenSSH transport vs built-in`, ms('openssh'), 'ms', { baseline: ms('builtin'), target: { maxRatio: 1.1 } });
    figure(`export ${PODS.toLocaleString('en-US')} pods: OpenSSH transport vs direct`, ms('openssh'), 'ms', { baseline: ms('direct') });
    figure(`export ${PODS.toLocaleString('en-US')} pods: built-in transport vs direct`, ms('builtin'), 'ms', { baseline: ms('direct') });
    figure(`export ${PODS.toLocaleString('en-US')} pods over OpenSSH: peak memory`, mib('openssh'), 'MiB', { baseline: mib('builtin'), note: 'vs the built-in transport' });
    return ok;
  } finally {
    await masters.remove();
    await h.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
