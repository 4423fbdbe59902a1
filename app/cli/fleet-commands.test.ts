// `pods SRC SRC...` and `compare` as a user runs them, against the fleet harness: hosts in network
// namespaces behind one bastion, their simulated workloads made to differ in known ways.
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIFTED_FLEET, firstWorkloadOf, HOTFIX_IMAGE, podsOfWorkload } from '../../e2e/harness/drifted-fleet';
import { startFleetHarness, type FleetHarness } from '../../e2e/harness/fleet-harness';
import { workloadKey } from '../fleet/workload-identity';
import type { PodObject, PodTree } from '../pod/pod-tree';
import { EXIT } from './exit-codes';
import { nodescope } from './testing/run-nodescope';

let f: FleetHarness;

beforeAll(async () => {
  f = await startFleetHarness({ hosts: [...DRIFTED_FLEET, { name: 'worker-4' }] });
  // worker-4 will be stopped: a short ConnectTimeout keeps the test quick.
  appendFileSync(f.sshConfig, '  ConnectTimeout 2\n');
}, 60_000);
afterAll(async () => {
  await f?.stop();
});

const common = () => ['-F', f.sshConfig, '--socket', f.nodeSocketPath!];
const HEALTHY = ['worker-1', 'worker-2', 'worker-3'];

describe('nodescope pods with several sources', () => {
  it('lists every node in one table with a NODE column, over one bastion login', async () => {
    const before = f.bastion.logins();
    const r = await nodescope(['pods', ...HEALTHY, ...common(), '-v']);
    expect(r.code, r.stderr).toBe(EXIT.ok);
    // -v says which login each node rides: the bastion's is made once, the other nodes join or reuse it.
    const bastion = r.stderr.split('\n').filter((l) => l.includes(`@${f.bastion.address}:`));
    expect(bastion.filter((l) => l.includes('logging in'))).toHaveLength(1);
    expect(bastion.filter((l) => /: (joining the login in progress,|reusing the login of) Nodescope's master /.test(l))).toHaveLength(HEALTHY.length - 1);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NODE\s+NAMESPACE\s+NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE$/);
    const nodes = lines.slice(1).map((l) => l.split(/\s+/)[0]);
    expect(nodes).toEqual(f.hosts.slice(0, 3).flatMap((h) => Array(h.kubelet.store.size).fill(h.name)));
    expect(f.bastion.logins() - before).toBe(1);
  });

  it('opens every host an ssh_config pattern matches, and the hosts a --hosts-file lists', async () => {
    const byPattern = await nodescope(['pods', 'worker-*,!worker-4', ...common()]);
    expect(byPattern.code, byPattern.stderr).toBe(EXIT.ok);
    expect(new Set(byPattern.stdout.trimEnd().split('\n').slice(1).map((l) => l.split(/\s+/)[0]))).toEqual(new Set(HEALTHY));
    const list = join(f.dir, 'hosts.txt');
    writeFileSync(list, '# the pool\nworker-3\n\nworker-1  # rack 2\n');
    const fromFile = await nodescope(['compare', '--hosts-file', list, ...common(), '-o', 'json']);
    expect((JSON.parse(fromFile.stdout) as { sources: { id: string }[] }).sources).toEqual([{ id: 'worker-3' }, { id: 'worker-1' }]);
    const none = await nodescope(['pods', 'gpu-*', ...common()]);
    expect(none.code).toBe(EXIT.usage);
    expect(none.stderr).toContain(`'gpu-*' matches no Host alias in ${f.sshConfig}`);
  });

  it('carries the source beside each pod in ndjson and json, the pods exactly as for one node', async () => {
    const one = await nodescope(['pods', 'worker-2', ...common(), '-o', 'ndjson']);
    const nd = await nodescope(['pods', 'worker-1', 'worker-2', ...common(), '-o', 'ndjson']);
    expect(nd.code, nd.stderr).toBe(EXIT.ok);
    const lines = nd.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { source: string; pod: PodTree });
    expect(lines.map((l) => l.source)).toEqual([...Array(f.hosts[0]!.kubelet.store.size).fill('worker-1'), ...Array(f.hosts[1]!.kubelet.store.size).fill('worker-2')]);
    // The embedded pod is kubectl's compact line, byte for byte.
    const embedded = nd.stdout.trimEnd().split('\n').filter((l) => l.startsWith('{"source":"worker-2"')).map((l) => l.slice('{"source":"worker-2","pod":'.length, -1));
    expect(embedded.join('\n')).toBe(one.stdout.trimEnd());

    const single = await nodescope(['pods', 'worker-1', ...common(), '-o', 'json']);
    const js = await nodescope(['pods', 'worker-1', 'worker-3', ...common(), '-o', 'json']);
    const doc = JSON.parse(js.stdout) as { kind: string; items: { source: string; list: unknown }[] };
    expect(doc.kind).toBe('PodListsBySource');
    expect(doc.items.map((i) => i.source)).toEqual(['worker-1', 'worker-3']);
    expect(doc.items[0]!.list).toEqual(JSON.parse(single.stdout));
  });

  it('reports a node whose sshd is stopped, with its cause, and still prints the others', async () => {
    f.hosts[3]!.pause();
    try {
      const r = await nodescope(['pods', 'worker-4', 'worker-1', ...common(), '-o', 'ndjson']);
      expect(r.code).toBe(EXIT.connection);
      const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { source: string; error?: string });
      expect(lines[0]).toEqual({ source: 'worker-4', error: expect.stringContaining(`No SSH answer from ${f.hosts[3]!.address}:22 within 2 s`) });
      expect(lines.slice(1).every((l) => l.source === 'worker-1')).toBe(true);
      expect(lines).toHaveLength(1 + f.hosts[0]!.kubelet.store.size);
      expect(r.stderr).toContain('nodescope pods: worker-4: ');
    } finally {
      f.hosts[3]!.resume();
    }
  });
});

describe('nodescope compare', () => {
  it('finds exactly the drift made: another image on worker-2, a DaemonSet missing on worker-3; exit 1', async () => {
    const k = f.hosts[0]!.kubelet;
    const deployment = firstWorkloadOf(k, 'Deployment');
    const daemonSet = firstWorkloadOf(k, 'DaemonSet');
    const r = await nodescope(['compare', ...HEALTHY, ...common(), '-o', 'json']);
    expect(r.code, r.stderr).toBe(EXIT.drift);
    const m = JSON.parse(r.stdout) as { drifted: number; rows: { workload: { namespace: string; kind: string; name: string }; drift: { kind: string; values: Record<string, string> }[] }[] };
    const drift = m.rows.flatMap((row) => row.drift.map((d) => ({ workload: workloadKey(row.workload), kind: d.kind, values: d.values })));
    const image = String(((podsOfWorkload(k, deployment)[0]!.spec as PodObject).containers as PodObject[])[0]!.image);
    expect(drift).toEqual(
      expect.arrayContaining([
        { workload: workloadKey(deployment), kind: 'image', values: { 'worker-1': image, 'worker-2': HOTFIX_IMAGE, 'worker-3': image } },
        { workload: workloadKey(daemonSet), kind: 'missing', values: { 'worker-1': 'present', 'worker-2': 'present', 'worker-3': 'missing' } },
      ]),
    );
    expect(drift).toHaveLength(2);

    const text = await nodescope(['compare', ...HEALTHY, ...common()]);
    expect(text.code).toBe(EXIT.drift);
    expect(text.stdout).toContain(`* ${workloadKey(deployment)}: image of container`);
    expect(text.stdout).toContain(`    worker-2: ${HOTFIX_IMAGE}`);
    const csv = await nodescope(['compare', ...HEALTHY, ...common(), '-o', 'csv']);
    expect(csv.stdout.split('\r\n')[0]).toBe('namespace,kind,workload,source,state,pods,ready_pods,phase,restarts,drift,drift_values');
    expect(csv.stdout).toContain(`,${daemonSet.name},worker-3,absent,0,0,,0,missing,\r\n`);
    // Only the node it is missing from says so; the drifted image is each node's own.
    expect(csv.stdout).toMatch(new RegExp(`,${daemonSet.name},worker-1,present,[^\r]*,,\r\n`));
    const hotfixLine = csv.stdout.split('\r\n').find((l) => l.includes(`,${deployment.name},worker-2,`))!;
    expect(hotfixLine).toContain(HOTFIX_IMAGE);
    expect(csv.stdout.split('\r\n').find((l) => l.includes(`,${deployment.name},worker-1,`))).not.toContain(HOTFIX_IMAGE);
  });

  it('exits 0 on alike nodes', async () => {
    const r = await nodescope(['compare', 'worker-1', 'worker-4', ...common()]);
    expect(r.code, r.stderr).toBe(EXIT.ok);
    expect(r.stdout).toContain('\nno drift\n');
  });

  it('asks for two sources', async () => {
    const r = await nodescope(['compare', 'worker-1', ...common()]);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toContain('compare needs at least 2 sources');
  });
});
