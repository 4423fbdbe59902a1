// What a start of the built CLI loads: only what the command needs. `--help` and a list of a local socket's
// pods load neither grpc-js, protobufjs, zod, yaml nor ssh2 (each a large share of a start); commands that do
// need grpc-js still find it. Every module file the process loads is recorded by a module hook, and a
// chunk of dist/cli is traced to the packages in it through its source map.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';

const bin = resolve(import.meta.dirname, '..', '..', 'bin', 'nodescope.js');
const run = promisify(execFile);
let dir: string;
let kubelet: SimulatedKubelet;
let register: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodescope-start-'));
  kubelet = await startSimulatedKubelet({ socketPath: join(dir, 'pods.sock'), pods: 10, seed: 5 });
  // The hooks run on their own thread: each loaded file's URL goes to the file named in the environment.
  const hooks = join(dir, 'hooks.mjs');
  await writeFile(
    hooks,
    "import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) {\n  if (url.startsWith('file:')) appendFileSync(process.env.LOADED_FILE, `${url}\\n`);\n  return next(url, context);\n}\n",
  );
  register = `data:text/javascript,import{register}from'node:module';register(${JSON.stringify(pathToFileURL(hooks).href)})`;
});
afterAll(async () => {
  await kubelet.stop();
  await rm(dir, { recursive: true, force: true });
});

/** Runs the CLI; returns its output and the npm packages (and ssh2, loaded from node_modules) it loaded. */
async function packagesLoaded(args: string[]): Promise<{ stdout: string; stderr: string; packages: Set<string> }> {
  const loadedFile = join(dir, `loaded-${args[0]}`);
  await writeFile(loadedFile, '');
  const { stdout, stderr } = await run(process.execPath, ['--import', register, bin, ...args], { env: { ...process.env, LOADED_FILE: loadedFile } });
  const packages = new Set<string>();
  // grpc-js's status codes (one small file of constants) are no load of grpc-js.
  const nameIn = (path: string) => (/@grpc\/grpc-js\/(build\/)?src\/constants\.[jt]s$/.test(path) ? undefined : path.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1]);
  for (const url of (await readFile(loadedFile, 'utf8')).split('\n').filter(Boolean)) {
    const path = fileURLToPath(url);
    const direct = nameIn(path);
    if (direct) packages.add(direct);
    if (!path.includes(`${join('dist', 'cli')}/`)) continue;
    const map = JSON.parse(await readFile(`${path}.map`, 'utf8')) as { sources: string[] };
    for (const source of map.sources) {
      const name = nameIn(source);
      if (name) packages.add(name);
    }
  }
  return { stdout, stderr, packages };
}

const HEAVY = ['@grpc/grpc-js', '@grpc/proto-loader', 'protobufjs', 'zod', 'yaml', 'ssh2'];

describe('a start of the built CLI', () => {
  it('prints --help without loading any of the large packages', async () => {
    const r = await packagesLoaded(['--help']);
    expect(r.stdout).toContain('usage: nodescope <command>');
    expect(r.stderr).toBe('');
    expect(HEAVY.filter((p) => r.packages.has(p))).toEqual([]);
  });

  it("lists a local socket's pods as a table without them", async () => {
    const r = await packagesLoaded(['pods', 'node', '--local', kubelet.sockets.shipped!]);
    expect(r.stderr).toBe('');
    expect(r.stdout.split('\n')[0]).toMatch(/^NAMESPACE\s+NAME\s+PHASE/);
    expect(r.stdout.trim().split('\n')).toHaveLength(11);
    expect(HEAVY.filter((p) => r.packages.has(p))).toEqual([]);
  });

  it('loads grpc-js when a command calls the kubelet through it (GetPod)', async () => {
    const uid = kubelet.store.uids()[0]!;
    const r = await packagesLoaded(['get', 'node', uid, '--local', kubelet.sockets.shipped!, '-o', 'json']);
    expect(JSON.parse(r.stdout).metadata.uid).toBe(uid);
    expect(r.packages.has('@grpc/grpc-js')).toBe(true);
  });
});
