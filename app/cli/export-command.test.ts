// Ctrl-C during `nodescope export --file`: never a temporary file left behind, and a report (and exit
// code) that says what became of the file.
import { spawn } from 'node:child_process';
import { watch } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { EXIT } from './exit-codes';

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../../bin/nodescope.js');

/** Runs the CLI; `arm` sets up when to send `signal` (it may watch stderr as it grows). */
function nodescope(args: string[], arm: (interrupt: () => void, stderr: () => string) => void, signal: NodeJS.Signals = 'SIGINT') {
  const child = spawn(process.execPath, [BIN, ...args]);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  arm(() => child.kill(signal), () => stderr);
  return new Promise<{ code: number | null; signal: string | null; stderr: string }>((ok) => child.on('close', (code, signal) => ok({ code, signal, stderr })));
}

let dir: string;
let out: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodescope-export-'));
  out = join(dir, 'out');
  await mkdir(out);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('nodescope export --file interrupted', () => {
  let sim: SimulatedKubelet | undefined;
  afterAll(async () => sim?.stop());

  // SIGHUP: the terminal went away (a dropped SSH session to the jump box) and stops the export as Ctrl-C does.
  it.each([
    ['SIGINT', 130],
    ['SIGHUP', 129],
  ] as const)('%s while the file is being written: exit %i, the file as it was, and no temporary file stays', async (signal, code) => {
    sim ??= await startSimulatedKubelet({ socketPath: join(dir, 'big.sock'), pods: 6000, seed: 2 });
    const file = join(out, `pods-${signal}.json`);
    await writeFile(file, 'the previous export\n');
    // Interrupted the moment the temporary file appears, that is, while the pods stream into it.
    const r = await nodescope(
      ['export', '--local', join(dir, 'big.sock'), '--file', file, '--force'],
      (interrupt) => {
        const watcher = watch(out, (_e, name) => {
          if (name?.startsWith(`.pods-${signal}.json.`)) {
            watcher.close();
            interrupt();
          }
        });
      },
      signal,
    );
    // Either the signal came while pods were arriving (the file is kept) or after the last one (it is replaced
    // whole): what the report says is what happened, and nothing half-made stays.
    if (r.code === code) {
      expect(r.stderr).toContain(`${signal}: stopped before anything was written; ${file} is as it was`);
      expect(await readFile(file, 'utf8')).toBe('the previous export\n');
    } else {
      expect(r.code, r.stderr).toBe(EXIT.ok);
      expect(r.stderr).toContain('wrote 6000 pods');
      expect(JSON.parse(await readFile(file, 'utf8')).items).toHaveLength(6000);
    }
    expect((await readdir(out)).filter((n) => n.startsWith('.'))).toEqual([]);
  }, 60_000);

  it('while waiting for the kubelet: exit 130, the file as it was, and no temporary file', async () => {
    await sim?.stop();
    sim = await startSimulatedKubelet({ socketPath: join(dir, 'init.sock'), pods: 3, initializingMs: 60_000 });
    const file = join(out, 'kept.json');
    await writeFile(file, 'the previous export\n');
    const r = await nodescope(['export', '--local', join(dir, 'init.sock'), '--file', file, '--force'], (interrupt, stderr) => {
      const poll = setInterval(() => {
        if (/initializing/.test(stderr())) {
          clearInterval(poll);
          interrupt();
        }
      }, 20);
    });
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain(`SIGINT: stopped before anything was written; ${file} is as it was`);
    expect(await readFile(file, 'utf8')).toBe('the previous export\n');
    expect((await readdir(out)).filter((n) => n.startsWith('.'))).toEqual([]);
  }, 60_000);
});
