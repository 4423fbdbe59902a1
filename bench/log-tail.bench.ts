/**
 * Container logs over SSH, against the user's own tools in the same run, on loopback with the test harness's
 * sshd: the last 1,000 lines of a 1 GiB log (a sparse file, its end real CRI lines) read by Nodescope's
 * reader (ranged `dd` reads backwards from the end, app/logs) against `ssh HOST tail -n 1000 FILE`, both on a
 * connection already open (Nodescope's own, and an OpenSSH master for ssh), target within 1.5x; and how
 * long a line written on the node takes to reach a follower (polling each second, as the kubelet re-checks).
 */
import { spawn } from 'node:child_process';
import { appendFile, mkdtemp, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { startSshHarness } from '../e2e/harness/ssh-harness';
import { readContainerLogFiles } from '../app/logs/container-logs';
import { nodeFileAccess } from '../app/logs/node-file-access';
import { openSshConnection } from '../app/ssh/ssh-connection';
import { harnessTarget, scriptedPrompter } from '../app/ssh/testing/ssh-test-kit';
import { figure } from './figures';

const GIB = 1024 ** 3;
const TAIL = 1000;
const SAMPLES = 7;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const line = (i: number) => `2026-11-27T10:00:00.${String(i).padStart(9, '0')}Z ${i % 5 ? 'stdout' : 'stderr'} F request ${i} served in ${i % 97} ms\n`;

/** Runs ssh with the harness's config; resolves with stdout. */
function ssh(config: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('ssh', ['-F', config, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`ssh ${args.join(' ')}: exit ${code}: ${err}`))));
  });
}

export async function logTailBench(): Promise<boolean> {
  console.log('\nContainer logs over SSH (loopback sshd): a 1 GiB log tailed, and a follower\'s latency');
  const h = await startSshHarness();
  const dir = await mkdtemp(join(h.dir, 'log-bench-'));
  const file = join(dir, '0.log');
  const control = join(dir, 'master.sock');
  const conn = await openSshConnection(harnessTarget(h, h.root), { prompter: scriptedPrompter() });
  try {
    // 1 GiB without writing it: a hole, then real lines at the end (all a tail reads).
    const tail = Array.from({ length: 5 * TAIL }, (_, i) => line(i)).join('');
    const fh = await open(file, 'w', 0o640);
    await fh.truncate(GIB - Buffer.byteLength(tail));
    await fh.write(tail, GIB - Buffer.byteLength(tail));
    await fh.close();

    const access = nodeFileAccess(async () => conn.channels, { node: 'target', sudo: false });
    const files = { container: 'app', restartCount: 0, current: file, rotated: [] };
    const ours = async () => {
      let n = 0;
      for await (const w of readContainerLogFiles(access, files, { tailLines: TAIL })) n += w.bytes.length > 0 ? 1 : 0;
      if (n !== TAIL) throw new Error(`read ${n} lines, expected ${TAIL}`);
    };
    const master = ['-o', 'ControlMaster=auto', '-o', `ControlPath=${control}`, '-o', 'ControlPersist=60'];
    await ssh(h.sshConfig, [...master, 'target', 'true']);
    const theirs = async () => {
      const out = await ssh(h.sshConfig, [...master, 'target', 'tail', '-n', String(TAIL), file]);
      if (out.split('\n').length - 1 !== TAIL) throw new Error('tail printed another number of lines');
    };
    const timed = async (fn: () => Promise<void>) => {
      const t = performance.now();
      await fn();
      return performance.now() - t;
    };
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      // Alternate which goes first, so neither always meets a warmer cache.
      if (i % 2) a.push(await timed(ours)), b.push(await timed(theirs));
      else b.push(await timed(theirs)), a.push(await timed(ours));
    }
    let met = figure('last 1,000 lines of a 1 GiB log: nodescope', median(a), 'ms', { baseline: median(b), target: { maxRatio: 1.5 } });
    figure('last 1,000 lines of a 1 GiB log: ssh HOST tail -n 1000', median(b), 'ms');

    // Follow: a line appended on the node, timed until the follower yields it.
    const stop = new AbortController();
    const follower = readContainerLogFiles(access, files, { tailLines: 0, follow: true, signal: stop.signal })[Symbol.asyncIterator]();
    const latencies: number[] = [];
    // Lines, not timed, until the follower delivers one: it has placed itself at the end (lines written
    // before that are behind its start), so the timed writes below all reach it.
    const first = follower.next();
    const warming = setInterval(() => void appendFile(file, '2026-11-27T10:00:01.000000000Z stdout F follow starts\n'), 200);
    await first.finally(() => clearInterval(warming));
    for (let i = 0; i < SAMPLES; i++) {
      const marker = `follow-marker-${i}`;
      let next = follower.next();
      const t = performance.now();
      await appendFile(file, `2026-11-27T10:00:01.000000000Z stdout F ${marker}\n`);
      // Warm-up lines still on their way come first.
      for (let got = await next; !got.value?.bytes.toString().includes(marker); got = await (next = follower.next())) {
        if (got.done) throw new Error('the follow ended before the line written arrived');
      }
      latencies.push(performance.now() - t);
    }
    stop.abort();
    await follower.return?.(undefined);
    met = figure('follow: a line written on the node to the line delivered', median(latencies), 'ms', { target: { max: 1500 } }) && met;
    return met;
  } finally {
    await ssh(h.sshConfig, ['-o', `ControlPath=${control}`, '-O', 'exit', 'target']).catch(() => undefined);
    conn.close();
    await rm(dir, { recursive: true, force: true });
    await h.stop();
  }
}
