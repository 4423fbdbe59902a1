/**
 * Runs one benchmark case in a fresh Node process. JIT and heap state left by one code path skew the next
 * (the export path measured 0.24x after the tree printer had run, 0.45x alone), so every case starts clean;
 * its baseline is still measured in the same process, interleaved with it.
 */
import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export function runIsolated<T>(module: string, caseName: string): T {
  const r = spawnSync(process.execPath, [resolve(root, 'bin', 'run-ts.js'), resolve(root, 'bench', 'case-runner.ts'), module, caseName], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`bench case ${module}#${caseName} failed (exit ${r.status})`);
  const last = r.stdout.trim().split('\n').pop()!;
  return JSON.parse(last) as T;
}
