/**
 * Runs the CLI (bin/nodescope.js) with a module hook that records every file it loads, its worker threads
 * included: what a command loads can then be checked, not only what it prints.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const bin = resolve(import.meta.dirname, '..', '..', '..', 'bin', 'nodescope.js');
const run = promisify(execFile);

const HOOKS = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  if (url.startsWith('file:')) appendFileSync(process.env.NODESCOPE_LOADED_FILE, url + '\\n');
  return next(url, context);
}
`;

export interface RecordedRun {
  code: number;
  stdout: string;
  stderr: string;
  /** Paths of the files loaded, in order. */
  files: string[];
}

/** Runs `nodescope ...args` to its end. */
export async function runRecordingLoads(args: string[]): Promise<RecordedRun> {
  const dir = await mkdtemp(join(tmpdir(), 'nodescope-loads-'));
  try {
    const hooks = join(dir, 'hooks.mjs');
    const loaded = join(dir, 'loaded');
    await writeFile(hooks, HOOKS);
    await writeFile(loaded, '');
    // The hooks run on a thread of their own: each file loaded goes to `loaded`.
    const register = `data:text/javascript,import{register}from'node:module';register(${JSON.stringify(pathToFileURL(hooks).href)})`;
    const { code, stdout, stderr } = await run(process.execPath, ['--import', register, bin, ...args], {
      env: { ...process.env, NODESCOPE_LOADED_FILE: loaded },
      maxBuffer: 1 << 30,
    }).then(
      (r) => ({ code: 0, ...r }),
      (err: { code: number; stdout: string; stderr: string }) => err,
    );
    const files = (await readFile(loaded, 'utf8')).split('\n').filter(Boolean).map((url) => fileURLToPath(url));
    return { code, stdout, stderr, files };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
