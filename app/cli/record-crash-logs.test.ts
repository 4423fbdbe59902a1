// The flight recorder keeps the why: `nodescope record` on a simulated node that writes CRI log files, a
// container restarted while it records, the node's files then garbage-collected; `nodescope logs RECORDING`
// still prints the crashed instance's last lines, byte for byte what `nodescope logs` (kubectl's output)
// printed for them on the node.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PodObject } from '../pod/pod-tree';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { restartContainer } from '../sim/pod-changes';
import { containerStatuses } from '../sim/pod-status';
import { Prng } from '../sim/prng';
import { startSimContainerLogs, type SimContainerLogs } from '../sim/sim-container-logs';
import { EXIT } from './exit-codes';
import { nodescope } from './testing/run-nodescope';

const BIN = resolve(import.meta.dirname, '../../bin/nodescope.js');
let dir: string;
let logDir: string;
let sim: SimulatedKubelet;
let logs: SimContainerLogs;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'nodescope-crash-logs-'));
  logDir = join(dir, 'pods');
  sim = await startSimulatedKubelet({ socketPath: join(dir, 'kubelet.sock'), pods: 30, seed: 5 });
  logs = startSimContainerLogs(sim.store, { dir: logDir, seed: 5, intervalMs: 0, linesPerTick: 3 });
  for (let i = 0; i < 5; i++) logs.tick();
});
afterAll(async () => {
  logs?.stop();
  await sim?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const meta = (pod: PodObject) => pod.metadata as PodObject;

describe('a recording keeps the end of the log of each instance that ended', () => {
  it('prints the crashed instance\'s last lines after the node removed them, as kubectl logs printed them on the node', async () => {
    const file = join(dir, 'night.recording');
    const child = spawn(process.execPath, [BIN, 'record', `unix:${sim.sockets.shipped!}`, '--file', file, '--log-dir', logDir, '--crash-lines', '12'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((done) => child.on('close', done));
    await expect.poll(() => stderr, { timeout: 30_000 }).toMatch(/recording \d+ pods/);

    // A running container crashes and restarts while the node is recorded.
    const uid = sim.store.uids().find((u) => {
      const p = sim.store.get(u)!;
      const only = containerStatuses(p).length === 1 ? containerStatuses(p)[0]! : undefined;
      return (only?.state as PodObject | undefined)?.running && restartContainer(p, new Prng(2), Date.now());
    })!;
    const restarted = restartContainer(sim.store.get(uid)!, new Prng(2), Date.now())!;
    sim.store.apply({ op: 'update', pod: restarted });
    const pod = `${String(meta(restarted).namespace)}/${String(meta(restarted).name)}`;
    const container = String(containerStatuses(restarted)[0]!.name);
    const flags = ['-c', container, '--tail', '8', '--timestamps'];
    const onNode = await nodescope(['logs', `unix:${sim.sockets.shipped!}`, pod, '--previous', ...flags, '--log-dir', logDir]);
    expect(onNode.code, onNode.stderr).toBe(EXIT.ok);
    expect(onNode.stdout).toMatch(/goroutine 1 \[running\]/);

    await expect.poll(() => readFileSync(file, 'utf8').includes('"type":"LOG"'), { timeout: 30_000 }).toBe(true);
    child.kill('SIGINT');
    expect(await exited, stderr).toBe(EXIT.ok);
    // The node's garbage collection takes the pod's logs.
    rmSync(join(logDir, `${String(meta(restarted).namespace)}_${String(meta(restarted).name)}_${uid}`), { recursive: true });

    const kept = await nodescope(['logs', file, pod, '-p', ...flags]);
    expect(kept.code, kept.stderr).toBe(EXIT.ok);
    expect(kept.stdout).toBe(onNode.stdout);
    expect(kept.stderr).toMatch(/^nodescope: offline recording /);

    // The current instance was still running when the recording ended: nothing of it is kept, and it says so.
    const current = await nodescope(['logs', file, pod, ...flags]);
    expect(current.code).toBe(EXIT.api);
    expect(current.stderr).toMatch(/was (running|waiting) at .*: a recording keeps the end of an instance's log once it ends/);
    expect(current.stderr).toMatch(/Add --previous/);

    // At the start the container had not crashed yet (as far as the recording knows): its earlier instance, if any, ended before.
    const before = await nodescope(['logs', file, pod, '-p', '-c', container, '--at', '+0s']);
    expect(before.code).toBe(EXIT.api);
    expect(before.stderr).toMatch(/previous terminated container .* not found|the recording holds no log for instance \d+ .*: it ended before the recording started/);
  }, 90_000);
});
