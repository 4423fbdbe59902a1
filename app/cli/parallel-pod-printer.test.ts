// A large list printed by the built CLI on worker threads: the same bytes as printing its pods one by one,
// with a pod that does not decode left out and reported, and a newer kubelet's field warned about, each
// named by its place in the whole list.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server, ServerCredentials } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeListPodsResponse } from '../kubelet/testing/pods-api-writers';
import { encodePod } from '../pod/encode';
import { podBytesListToKubectl } from '../pod/kubectl-json';
import type { PodObject } from '../pod/pod-tree';
import { startSimulatedKubelet } from '../sim/kubelet-server';
import { generatePods } from '../sim/pod-generator';
import { podsServiceDefinition } from '../sim/pods-api-services';
import { EXIT } from './exit-codes';
import { PARALLEL_FROM_BYTES } from './parallel-pod-printer';
import { runRecordingLoads } from './testing/loaded-files';

let dir: string;
let server: Server;
let socketPath: string;
const generated = generatePods(1500, { seed: 11, nodeName: 'big-node', nowMs: Date.UTC(2026, 5, 26, 10, 0, 0) });
const pods = generated.map((p) => encodePod(p));
// Pod 700 is cut short (it cannot decode); pod 1200 has field 99, which this version does not know.
pods[700] = pods[700]!.subarray(0, 40);
pods[1200] = Buffer.concat([pods[1200]!, Buffer.from([0x9a, 0x06, 0x03, 0x61, 0x62, 0x63])]);
const newer = generated[1200]!.metadata as PodObject;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodescope-parallel-'));
  socketPath = join(dir, 'pods.sock');
  const response = writeListPodsResponse(pods);
  expect(response.length).toBeGreaterThan(PARALLEL_FROM_BYTES);
  server = new Server();
  server.addService(podsServiceDefinition('shipped'), {
    ListPods: (_call: unknown, done: (err: null, res: Uint8Array) => void) => done(null, response),
    GetPod: () => undefined,
    WatchPods: () => undefined,
  });
  await new Promise<void>((ok, fail) => server.bindAsync(`unix:${socketPath}`, ServerCredentials.createInsecure(), (err) => (err ? fail(err) : ok())));
});
afterAll(async () => {
  server.forceShutdown();
  await rm(dir, { recursive: true, force: true });
});

const exportNode = (...args: string[]) => runRecordingLoads(['export', 'node', '--local', socketPath, ...args]);
const onWorkers = (files: string[]) => files.some((f) => f.endsWith(join('dist', 'cli', 'pod-print-worker.js')));

describe('a large list printed on worker threads', () => {
  it.each([
    ['json', [], {}],
    ['ndjson', ['-o', 'ndjson'], { ndjson: true }],
  ] as const)('prints it (%s) byte for byte as one by one, naming the pod left out and the field unknown', async (_name, args, options) => {
    const r = await exportNode(...args);
    expect(r.code, r.stderr).toBe(EXIT.data);
    expect(onWorkers(r.files)).toBe(true);
    expect(r.stdout).toBe(Buffer.from(podBytesListToKubectl(pods, options).bytes).toString());
    expect(r.stderr).toMatch(/left out a pod that does not decode: cannot decode pod .*pods\[700\]/);
    expect(r.stderr).toContain(`warning: pod ${newer.namespace as string}/${newer.name as string}: 1 field unknown to this Nodescope`);
  });

  it('writes the same to --file', async () => {
    const file = join(dir, 'export.json');
    const r = await exportNode('--file', file);
    expect(r.code, r.stderr).toBe(EXIT.data);
    expect(onWorkers(r.files)).toBe(true);
    // Compared whole, not element by element (22 MB).
    expect((await readFile(file)).equals(podBytesListToKubectl(pods).bytes)).toBe(true);
  });

  it('a --file on a full disk: says so, exit 2, no temporary file left and no stack trace', async () => {
    // A real full disk: a 64 KiB tmpfs, far smaller than the list; the write fails while workers print.
    const small = join(dir, 'small-disk');
    await mkdir(small);
    expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', small]).status).toBe(0);
    try {
      const file = join(small, 'export.json');
      const r = await exportNode('--file', file);
      expect(r.stderr).toContain(`cannot write ${file}: the disk is full`);
      expect(r.stderr).not.toMatch(/^\s+at |ENOSPC/m);
      expect(r.code).toBe(EXIT.usage);
      expect(onWorkers(r.files)).toBe(true);
      expect(await readdir(small)).toEqual([]);
    } finally {
      spawnSync('umount', [small]);
    }
  });

  it('prints a small list here, without starting a worker', async () => {
    const kubelet = await startSimulatedKubelet({ socketPath: join(dir, 'small.sock'), pods: 20, seed: 4 });
    try {
      const r = await runRecordingLoads(['export', 'node', '--local', join(dir, 'small.sock'), '-o', 'ndjson']);
      expect(r.code, r.stderr).toBe(EXIT.ok);
      expect(r.stdout.trim().split('\n')).toHaveLength(20);
      expect(onWorkers(r.files)).toBe(false);
    } finally {
      await kubelet.stop();
    }
  });
});
