// What a start of the built CLI loads: only what the command needs. `--help` and a list of a local socket's
// pods load neither grpc-js, protobufjs, zod, yaml nor ssh2 (each a large share of a start), and no kubelet
// call needs grpc-js (only the simulator serves with it). Every module file the process loads is recorded by a module hook, and a
// chunk of dist/cli is traced to the packages in it through its source map.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { runRecordingLoads } from './testing/loaded-files';

let dir: string;
let kubelet: SimulatedKubelet;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodescope-start-'));
  kubelet = await startSimulatedKubelet({ socketPath: join(dir, 'pods.sock'), pods: 10, seed: 5 });
});
afterAll(async () => {
  await kubelet.stop();
  await rm(dir, { recursive: true, force: true });
});

/** Runs the CLI; returns its output and the npm packages (ssh2 is loaded from node_modules) it loaded. */
async function packagesLoaded(args: string[]): Promise<{ stdout: string; stderr: string; packages: Set<string> }> {
  const { code, stdout, stderr, files } = await runRecordingLoads(args);
  expect(code, stderr).toBe(0);
  const packages = new Set<string>();
  // grpc-js's status codes (one small file of constants) are no load of grpc-js.
  const nameIn = (path: string) => (/@grpc\/grpc-js\/(build\/)?src\/constants\.[jt]s$/.test(path) ? undefined : path.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1]);
  for (const path of files) {
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
    expect(r.stdout.split('\n')[0]).toMatch(/^NAMESPACE\s+NAME\s+READY\s+STATUS/);
    expect(r.stdout.trim().split('\n')).toHaveLength(11);
    expect(HEAVY.filter((p) => r.packages.has(p))).toEqual([]);
  });

  it('gets one pod (a unary GetPod) without grpc-js: every kubelet call rides the client over node:http2', async () => {
    const uid = kubelet.store.uids()[0]!;
    const r = await packagesLoaded(['get', 'node', uid, '--local', kubelet.sockets.shipped!, '-o', 'json']);
    expect(JSON.parse(r.stdout).metadata.uid).toBe(uid);
    expect(r.packages.has('@grpc/grpc-js')).toBe(false);
  });
});
