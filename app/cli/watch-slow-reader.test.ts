// `nodescope watch` whose reader stops reading: it says so and exits 6 at once, not when the reader finally goes.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { EXIT } from './exit-codes';
import { nodescope } from './testing/run-nodescope';

const BIN = resolve(import.meta.dirname, '../../bin/nodescope.js');
let dir: string;
let sim: SimulatedKubelet;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodescope-watch-slow-'));
  sim = await startSimulatedKubelet({ socketPath: join(dir, 'pods.sock'), pods: 50, seed: 7, churnPerSecond: 40, watchBufferLimit: 100_000 });
});
afterAll(async () => {
  await sim?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('nodescope watch with a reader that stopped reading', () => {
  it('says how far behind the reader fell and exits 6 while the reader still holds the pipe open', async () => {
    const child = spawn(process.execPath, [BIN, 'watch', `unix:${sim.sockets.shipped!}`, '-o', 'json', '--max-unread', '256KiB'], { stdio: ['ignore', 'pipe', 'pipe'] });
    onTestFinished(() => void child.kill());
    // stdout is never read: the pipe fills and the live events wait for a reader that does not come.
    child.stdout.pause();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((done) => child.on('exit', (c) => done(c)));
    child.stdout.destroy();
    expect(code, stderr).toBe(EXIT.output);
    expect(stderr).toMatch(/stopping: the reader of the output fell 256 KiB behind; read it faster/);
  });

  it('refuses a --max-unread that is not a size, naming the form to give', async () => {
    const r = await nodescope(['watch', `unix:${sim.sockets.shipped!}`, '--max-unread', '64M']);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toMatch(/bad --max-unread '64M': give a size such as 64MiB or 512KiB/);
  });
});
