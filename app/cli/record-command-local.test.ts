// `nodescope record` on a local socket (the simulated kubelet): what the file is when it exists (private, whole),
// and what the user is told when nothing could be recorded (Ctrl-C before the first list, a disk full at once).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { EXIT } from './exit-codes';
import { nodescope } from './testing/run-nodescope';

const BIN = resolve(import.meta.dirname, '../../bin/nodescope.js');
let dir: string;
let sim: SimulatedKubelet;
const socketOf = (k: SimulatedKubelet) => `unix:${k.sockets.shipped!}`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'nodescope-record-local-'));
  sim = await startSimulatedKubelet({ socketPath: join(dir, 'kubelet.sock'), pods: 300, seed: 3, churnPerSecond: 5 });
});
afterAll(async () => {
  await sim?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** `nodescope record SOURCE --file FILE`, sent `signal` once its stderr shows `when`. */
function recordUntil(source: string, file: string, when: RegExp, signal: NodeJS.Signals): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [BIN, 'record', source, '--file', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let sent = false;
  return new Promise((done) => {
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (when.test(stderr) && !sent) sent = child.kill(signal);
    });
    child.on('close', (code) => done({ code, stderr }));
  });
}

describe('nodescope record on a local socket', () => {
  it('writes the recording private to the user (0600) under the usual umask 022', async () => {
    const file = join(dir, 'private.recording');
    const umask = process.umask(0o022);
    const r = await nodescope(['record', socketOf(sim), '--file', file, '--duration', '1s']).finally(() => process.umask(umask));
    expect(r.code, r.stderr).toBe(EXIT.ok);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('Ctrl-C before the node listed its pods says nothing was recorded, exits 128+2 and leaves no file', async () => {
    const initializing = await startSimulatedKubelet({ socketPath: join(dir, 'initializing.sock'), pods: 3, initializingMs: 120_000 });
    try {
      const file = join(dir, 'never.recording');
      // The kubelet said it is initializing: the recorder is running and waiting for the first list.
      const { code, stderr } = await recordUntil(socketOf(initializing), file, /initializing; retrying/, 'SIGINT');
      expect(code, stderr).toBe(128 + 2);
      expect(stderr).toMatch(/stopped by SIGINT before the node's pods were listed: nothing was recorded and no file was written/);
      expect(existsSync(file)).toBe(false);
    } finally {
      await initializing.stop();
    }
  });

  it('a terminal that goes away (SIGHUP) stops the recording as Ctrl-C does: the end written, exit 0', async () => {
    const file = join(dir, 'hangup.recording');
    const { code, stderr } = await recordUntil(socketOf(sim), file, /recording \d+ pods/, 'SIGHUP');
    expect(code, stderr).toBe(EXIT.ok);
    expect(stderr).toMatch(/stopped: recorded \d+ events \(\d+ bytes\) to /);
    const opened = await nodescope(['pods', file]);
    expect(opened.code, opened.stderr).toBe(EXIT.ok);
  });

  it('a disk full during the initial set: exit 6, says nothing was recorded, and leaves no file that cannot be opened', async () => {
    // A real full disk: a 64 KiB tmpfs, far smaller than 300 pods.
    const small = join(dir, 'small-disk');
    mkdirSync(small);
    expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', small]).status).toBe(0);
    try {
      const file = join(small, 'full.recording');
      const r = await nodescope(['record', socketOf(sim), '--file', file, '--duration', '5s']);
      expect(r.code, r.stderr).toBe(EXIT.output);
      expect(r.stderr).toMatch(/the disk is full\. Nothing was recorded and the file is removed/);
      expect(r.stderr).not.toMatch(/is kept/);
      expect(existsSync(file)).toBe(false);
    } finally {
      spawnSync('umount', [small]);
    }
  });
});
