/** Starts bench/kubelet-process.ts (a simulated kubelet in its own process) and waits for it to serve. */
import { spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export async function kubeletProcess(socketPath: string, pods: number, seed: number, churnPerSecond = 0): Promise<{ stop(): Promise<void> }> {
  const args = [socketPath, String(pods), String(seed), String(churnPerSecond)];
  const proc = spawn(process.execPath, [resolve(here, '../bin/run-ts.js'), resolve(here, 'kubelet-process.ts'), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((ready, fail) => {
    proc.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && ready());
    proc.once('exit', (code) => fail(new Error(`simulated kubelet exited (${code}) before serving`)));
  });
  return {
    stop: () =>
      new Promise<void>((done) => {
        if (proc.exitCode !== null) return done();
        proc.once('exit', () => done());
        proc.kill('SIGTERM');
      }),
  };
}
