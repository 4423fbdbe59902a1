// `nodescope logs` end to end: the CLI in a child process on a log directory with known lines, compared byte for
// byte with what kubectl logs prints for them (expected files derived from the kubelet's reader, see
// app/logs/testdata), and on the simulator's live log directory.
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listPodLogDirs } from '../logs/pod-log-layout';
import { localFileAccess } from '../logs/local-file-access';
import type { PodObject } from '../pod/pod-tree';
import { generatePods } from '../sim/pod-generator';
import { containerStatuses } from '../sim/pod-status';
import { PodStore } from '../sim/pod-store';
import { startSimContainerLogs, type SimContainerLogs } from '../sim/sim-container-logs';
import { EXIT } from './exit-codes';
import { nodescope } from './testing/run-nodescope';

const TESTDATA = resolve(dirname(fileURLToPath(import.meta.url)), '../logs/testdata');
const LOG_DIR = join(TESTDATA, 'var-log-pods');
const logs = (...args: string[]) => nodescope(['logs', '--local', '/nonexistent/pods.sock', '--log-dir', LOG_DIR, ...args]);
const expected = (name: string) => readFile(join(TESTDATA, 'expected', `${name}.out`), 'utf8');

describe('nodescope logs prints what kubectl logs prints', () => {
  const cases: [string, string[]][] = [
    ['plain', ['default/web', '-c', 'app']],
    ['timestamps', ['web', '-c', 'app', '--timestamps']],
    ['tail-3', ['3f1c2a4e-9b7d-4c1e-8f00-5a6b7c8d9e01', '-c', 'app', '--tail', '3']],
    ['tail-5-timestamps', ['default/web', '-c', 'app', '--tail', '5', '--timestamps']],
    ['since-time', ['default/web', '-c', 'app', '--since-time', '2026-11-27T11:00:02.9Z']],
    ['limit-bytes-20-timestamps', ['default/web', '-c', 'app', '--limit-bytes', '20', '--timestamps']],
    ['previous', ['default/web', '-c', 'app', '--previous']],
    ['all-containers', ['default/web', '--all-containers']],
    ['all-containers-interleave-prefix', ['default/web', '--all-containers', '--interleave', '--prefix']],
    ['include-rotated', ['default/web', '-c', 'app', '--include-rotated']],
  ];
  for (const [name, args] of cases) {
    it(`${name}: ${args.slice(1).join(' ')}`, async () => {
      const r = await logs(...args);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(EXIT.ok);
      expect(r.stdout).toBe(await expected(name));
    });
  }

  it('fails as the kubelet does when the tail starts on a line that is not CRI', async () => {
    const r = await logs('default/web', '-c', 'app', '--tail', '4');
    expect(r.code).toBe(EXIT.data);
    expect(r.stderr).toContain('does not start with a CRI log line');
  });

  it('says which pod or container has no log and why, with exit 4; bad flags exit 2', async () => {
    const none = await logs('default/nope');
    expect(none.code).toBe(EXIT.api);
    expect(none.stderr).toContain('no logs for pod default/nope');
    expect(none.stderr).toContain('next step: The pod is not on this node, none of its containers has started yet');
    const several = await logs('default/web');
    expect(several.code).toBe(EXIT.usage);
    expect(several.stderr).toContain('several containers with logs: app, sidecar; choose one with -c');
    const gone = await logs('default/web', '-c', 'db');
    expect(gone.code).toBe(EXIT.api);
    expect(gone.stderr).toContain('Its containers with logs: app, sidecar');
    const prev = await logs('default/web', '-c', 'sidecar', '--previous');
    expect(prev.stderr).toContain('previous terminated container "sidecar" in pod "default/web" not found');
    expect((await logs('default/web', '-c', 'app', '--since', '5m', '--since-time', '2026-11-27T11:00:00Z')).code).toBe(EXIT.usage);
    expect((await logs('default/web', '-c', 'app', '--limit-bytes', '0')).stderr).toContain('--limit-bytes must be greater than 0');
    expect((await logs('../../etc', '-c', 'app')).code).toBe(EXIT.usage);
    const kubectlHabit = await logs('default/web', '-c', 'app', '-p');
    expect(kubectlHabit.code).toBe(EXIT.usage);
    expect(kubectlHabit.stderr).toContain('for the previous instance use --previous');
  });
});

describe('nodescope logs on the simulator\'s log directory', () => {
  let dir: string;
  let sim: SimContainerLogs;
  let store: PodStore;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ns-cli-logs-'));
    store = new PodStore(generatePods(10, { seed: 5, nodeName: 'n1', nowMs: Date.now() }));
    sim = startSimContainerLogs(store, { dir, seed: 5, intervalMs: 250, maxFileBytes: 2048 });
  });
  afterAll(async () => {
    sim.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('follows a running container across rotations until interrupted', async () => {
    const uid = store.uids().find((u) => containerStatuses(store.get(u)!).some((c) => (c.state as PodObject).running))!;
    const pod = (await listPodLogDirs(localFileAccess(), dir)).find((p) => p.uid === uid)!;
    const container = String(containerStatuses(store.get(uid)!).find((c) => (c.state as PodObject).running)!.name);
    // 2 KiB files and 2 lines per 250 ms: a rotation every few seconds, each seen by the follower's 1 s polls
    // (faster, a busy machine's follower meets files already compressed and removed, whose rest is lost).
    const r = await nodescope(['logs', '--local', '/nonexistent.sock', '--log-dir', dir, `${pod.namespace}/${pod.name}`, '-c', container, '-f', '--timestamps', '--tail', '0'], {
      until: (out) => out.split('\n').filter(Boolean).length > 60,
    });
    expect(r.code).toBe(EXIT.ok);
    const times = r.stdout.split('\n').filter(Boolean).map((l) => l.slice(0, l.indexOf(' ')));
    expect(times.length).toBeGreaterThan(60);
    // Every line once, in the order written, across rotations: the times never go back. RFC3339Nano drops
    // trailing zeros (…00.5Z is before …00.52Z), so the fraction is widened to 9 digits before comparing.
    const comparable = times.map((t) => t.replace(/(?:\.(\d+))?Z$/, (_, f: string | undefined) => `.${(f ?? '').padEnd(9, '0')}Z`));
    expect([...comparable].sort()).toEqual(comparable);
    expect(new Set(times).size).toBe(times.length);
  });
});
