// Progress while a node's pods arrive: on a terminal's stderr only, never in the data, never in a pipe.
// The CLI runs under `script`, which gives it a real pseudo-terminal, against the simulated kubelet.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { listProgress } from './list-progress';

const bin = resolve(import.meta.dirname, '..', '..', 'bin', 'nodescope.js');
let dir: string;
let kubelet: SimulatedKubelet;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodescope-progress-'));
  kubelet = await startSimulatedKubelet({ socketPath: join(dir, 'pods.sock'), pods: 200, seed: 3 });
});
afterAll(async () => {
  await kubelet.stop();
  await rm(dir, { recursive: true, force: true });
});

// Asynchronous: the simulated kubelet serving the CLI runs in this process.
const run = promisify(execFile);
/** Runs a shell command line under a pseudo-terminal; returns what the terminal showed. */
async function onTerminal(command: string): Promise<string> {
  return (await run('script', ['-qfec', command, '/dev/null'], { encoding: 'utf8', maxBuffer: 1 << 30 })).stdout;
}
const cli = (args: string) => `${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} ${args} --local ${JSON.stringify(kubelet.sockets.shipped!)}`;

describe('progress while a node is listed', () => {
  it('counts pods on a terminal while an export goes to a file, then erases itself', async () => {
    const file = join(dir, 'export.json');
    const screen = await onTerminal(`${cli('export node')} --file ${JSON.stringify(file)}`);
    expect(screen).toMatch(/nodescope: \d+ pods? received/);
    // Erased before the closing line, which stays.
    expect(screen.trimEnd()).toMatch(/\r\x1b\[Knodescope: wrote 200 pods \(\d+ bytes\) to .+$/);
    const list = JSON.parse(await readFile(file, 'utf8')) as { items: unknown[] };
    expect(list.items).toHaveLength(200);
  });

  it('counts pods on a terminal while the data goes to a pipe, and never into the data', async () => {
    const file = join(dir, 'piped.json');
    const screen = await onTerminal(`${cli('pods node -o json')} | cat > ${JSON.stringify(file)}`);
    expect(screen).toMatch(/nodescope: \d+ pods? received/);
    expect((JSON.parse(await readFile(file, 'utf8')) as { items: unknown[] }).items).toHaveLength(200);
  });

  it('counts pods for the table on the terminal, erased before the table is drawn', async () => {
    const screen = await onTerminal(cli('pods node'));
    expect(screen).toMatch(/nodescope: \d+ pods? received\r\x1b\[KNAMESPACE +NAME/);
    expect(screen.trim().split('\n')).toHaveLength(201);
  });

  it('shows nothing when JSON itself is drawn on the terminal', async () => {
    const screen = await onTerminal(cli('pods node -o ndjson'));
    expect(screen).not.toContain('received');
    expect(screen.trim().split('\n')).toHaveLength(200);
  });

  it('shows nothing when stderr is not a terminal (a pipe, a log)', async () => {
    const r = await run(process.execPath, [bin, 'export', 'node', '--local', kubelet.sockets.shipped!], { encoding: 'utf8', maxBuffer: 1 << 30 });
    expect(r.stderr).toBe('');
    expect((JSON.parse(r.stdout) as { items: unknown[] }).items).toHaveLength(200);
  });

  it('keeps warnings on lines of their own, clear of the progress line', () => {
    const written: string[] = [];
    const progress = listProgress(true, { isTTY: true, write: (t) => written.push(t) });
    progress.pod();
    progress.line('nodescope: a warning');
    progress.done();
    expect(written.join('')).toBe('\r\x1b[Knodescope: 1 pod received\r\x1b[Knodescope: a warning\n');
  });
});
