/**
 * CLI processes timed as users run them, from spawn to exit, with their peak resident memory (peak-rss.cjs),
 * the sides interleaved so load from other processes hits them alike.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export interface Run {
  ms: number;
  /** Peak resident memory, KiB. */
  rssKiB: number;
}

export interface RunOptions {
  /** Added to the environment. */
  env?: NodeJS.ProcessEnv;
  /** stderr lines the command is expected to write (a node command over SSH says how it reads the node). */
  expectedStderr?: RegExp;
}

/** Runs `node ...args` to its end, output dropped; fails on a non-zero exit. */
async function run(args: string[], rssFile: string, { env, expectedStderr }: RunOptions): Promise<Run> {
  const t = performance.now();
  const proc = spawn(process.execPath, ['--require', join(here, 'peak-rss.cjs'), ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...env, NODESCOPE_BENCH_RSS_FILE: rssFile },
  });
  let stderr = '';
  proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((done) => proc.once('exit', done));
  const ms = performance.now() - t;
  if (code !== 0) throw new Error(`node ${args.join(' ')} exited ${code}: ${stderr}`);
  // A note on stderr would mean the sources ran, not the build this bench is about.
  if (stderr.split('\n').some((line) => line && !expectedStderr?.test(line))) throw new Error(`node ${args.join(' ')} wrote to stderr: ${stderr}`);
  return { ms, rssKiB: Number(await readFile(rssFile, 'utf8')) };
}

/** `rounds` runs of each side (after one warm-up run each), in alternating order; the runs by side. */
export async function interleaved(sides: Record<string, string[]>, rounds: number, rssFile: string, options: RunOptions = {}): Promise<Record<string, Run[]>> {
  const runs: Record<string, Run[]> = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));
  const names = Object.keys(sides);
  for (const name of names) await run(sides[name]!, rssFile, options); // warm-up: every file in the page cache
  for (let r = 0; r < rounds; r++) {
    for (const name of r % 2 ? [...names].reverse() : names) runs[name]!.push(await run(sides[name]!, rssFile, options));
  }
  return runs;
}
