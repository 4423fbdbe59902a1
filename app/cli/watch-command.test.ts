// `nodescope watch` into a pipe: the initial sync of a large node is paced by its reader, not blamed on it.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { EXIT } from './exit-codes';
import { MAX_UNREAD_OUTPUT } from './output-backlog';

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../../bin/nodescope.js');
// Enough pods that the sync's NDJSON (about 5.7 KB a pod) is larger than what a reader may leave unread.
const PODS = 14_000;

let dir: string;
let sim: SimulatedKubelet;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodescope-watch-'));
  sim = await startSimulatedKubelet({ socketPath: join(dir, 'pods.sock'), pods: PODS, seed: 5, watchBufferLimit: 100_000 });
}, 60_000);
afterAll(async () => {
  await sim?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('nodescope watch -o ndjson into a pipe', () => {
  it('writes a sync larger than the unread limit in full to a reader that keeps up', async () => {
    const child = spawn(process.execPath, [BIN, 'watch', '--local', join(dir, 'pods.sock'), '-o', 'ndjson']);
    let lines = 0;
    let bytes = 0;
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      bytes += d.length;
      for (const b of d) if (b === 10) lines++;
      if (lines === PODS) child.kill('SIGINT');
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise((ok) => child.on('close', ok));
    expect(code, stderr).toBe(EXIT.ok);
    expect(lines).toBe(PODS);
    expect(bytes).toBeGreaterThan(MAX_UNREAD_OUTPUT);
    expect(stderr).toContain(`in sync: ${PODS} pods`);
  }, 120_000);
});
