import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import type { PodObject, PodTree } from '../pod/pod-tree';
import { PodGenerator } from '../sim/pod-generator';
import { csvField, matrixToCsv, matrixToJson } from './matrix-export';
import { workloadOf, workloadKey } from './workload-identity';
import { runAtOnce } from '../util/time-slices';
import { SharedValues } from '../util/shared-values';
import { buildWorkloadMatrix, matrixPodOf, workloadMatrixSteps } from './workload-matrix';

const NOW = Date.parse('2026-11-23T10:00:00Z');

/** A node's pods: the same seed on every node gives the same workloads, as nodes of one pool run. */
function nodePods(nodeName: string, count = 60): PodTree[] {
  const g = new PodGenerator({ seed: 3, nodeName });
  return Array.from({ length: count }, () => g.existing(NOW));
}

const meta = (p: PodTree) => p.metadata as PodObject;
const containers = (p: PodTree) => (p.spec as PodObject).containers as PodObject[];
const podsOf = (pods: PodTree[], kind: string, name?: string) => pods.filter((p) => workloadOf(p).kind === kind && (name === undefined || workloadOf(p).name === name));
/** A changed copy, as the store wants pods treated as immutable. */
const edited = (p: PodTree, edit: (copy: PodTree) => void): PodTree => {
  const copy = structuredClone(p);
  edit(copy);
  return copy;
};

describe('workloadOf', () => {
  const pods = nodePods('worker-1', 110);

  it('names a ReplicaSet pod by its Deployment, the pod-template-hash suffix stripped', () => {
    const pod = podsOf(pods, 'Deployment')[0]!;
    const owner = (meta(pod).ownerReferences as PodObject[])[0]!;
    const hash = (meta(pod).labels as Record<string, string>)['pod-template-hash']!;
    expect(owner.kind).toBe('ReplicaSet');
    expect(workloadOf(pod)).toEqual({ namespace: meta(pod).namespace, kind: 'Deployment', name: String(owner.name).slice(0, -hash.length - 1) });
  });

  it('keeps a ReplicaSet whose pods carry no pod-template-hash (a bare ReplicaSet, or a mask left labels out)', () => {
    const pod = edited(podsOf(pods, 'Deployment')[0]!, (p) => delete meta(p).labels);
    expect(workloadOf(pod).kind).toBe('ReplicaSet');
  });

  it('names a static pod without its node suffix, so control-plane nodes line up', () => {
    const names = podsOf(pods, 'Static').map((p) => [meta(p).name, workloadOf(p).name]);
    expect(names).toContainEqual(['etcd-worker-1', 'etcd']);
    expect(names).toContainEqual(['kube-apiserver-worker-1', 'kube-apiserver']);
  });

  it('names a CronJob by its Job name without the schedule suffix, a plain Job by itself', () => {
    const job = podsOf(pods, 'Job')[0] ?? podsOf(pods, 'CronJob')[0]!;
    const at = (name: string) => workloadOf(edited(job, (p) => ((meta(p).ownerReferences as PodObject[])[0]!.name = name)));
    expect(at('backup-29377440')).toMatchObject({ kind: 'CronJob', name: 'backup' });
    expect(at('migrate-v2')).toMatchObject({ kind: 'Job', name: 'migrate-v2' });
  });

  it('names DaemonSet and StatefulSet pods by their owner, bare pods by their own name', () => {
    for (const kind of ['DaemonSet', 'StatefulSet']) {
      const pod = pods.find((p) => (meta(p).ownerReferences as PodObject[] | undefined)?.[0]?.kind === kind)!;
      expect(workloadOf(pod)).toMatchObject({ kind, name: (meta(pod).ownerReferences as PodObject[])[0]!.name });
    }
    const bare = pods.find((p) => !meta(p).ownerReferences)!;
    expect(workloadOf(bare)).toEqual({ namespace: meta(bare).namespace, kind: 'Pod', name: meta(bare).name });
  });
});

describe('buildWorkloadMatrix', () => {
  it('lines up alike nodes row by row with their counts, and finds no drift', () => {
    const a = nodePods('worker-1');
    const b = nodePods('worker-2');
    const m = buildWorkloadMatrix([{ id: 'worker-1', pods: a }, { id: 'worker-2', pods: b }]);
    expect(m.drifted).toBe(0);
    expect(m.rows.reduce((n, r) => n + r.cells[0]!.pods, 0)).toBe(60);
    for (const row of m.rows) expect(row.cells[0]).toEqual({ ...row.cells[1], podNames: expect.any(Array) });
    const deployment = m.rows.find((r) => r.workload.kind === 'Deployment')!;
    expect(deployment.cells[0]!.podNames).toEqual(a.filter((p) => workloadKey(workloadOf(p)) === deployment.key).map((p) => meta(p).name).sort());
  });

  it('finds exactly the drift made: an image, resources, args, env, a missing DaemonSet, a differing static pod', () => {
    const base = nodePods('worker-1');
    const deployment = workloadOf(podsOf(base, 'Deployment')[0]!);
    const stateful = workloadOf(podsOf(base, 'StatefulSet')[0]!);
    const daemonSet = workloadOf(podsOf(base, 'DaemonSet')[0]!);
    const inWorkload = (p: PodTree, w: ReturnType<typeof workloadOf>) => workloadKey(workloadOf(p)) === workloadKey(w);
    const mainOf = (p: PodTree) => containers(p)[0]!;

    // worker-2: the Deployment runs another image and more memory; the DaemonSet's pod is gone.
    const b = nodePods('worker-2')
      .filter((p) => !inWorkload(p, daemonSet))
      .map((p) => (inWorkload(p, deployment) ? edited(p, (c) => ((mainOf(c).image = 'registry.example.internal/acme/hotfix:9.9.9'), (mainOf(c).resources = { limits: { memory: '1Gi' } }))) : p));
    // worker-3: the StatefulSet has another env and args; its etcd manifest differs.
    const c = nodePods('worker-3').map((p) =>
      inWorkload(p, stateful)
        ? edited(p, (x) => ((mainOf(x).env = [{ name: 'MODE', value: 'debug' }]), (mainOf(x).args = ['--verbose'])))
        : workloadOf(p).kind === 'Static' && workloadOf(p).name === 'etcd'
          ? edited(p, (x) => (mainOf(x).command = ['etcd', '--data-dir=/var/lib/etcd', '--snapshot-count=5000']))
          : p,
    );
    const a = nodePods('worker-1');
    const m = buildWorkloadMatrix([{ id: 'worker-1', pods: a }, { id: 'worker-2', pods: b }, { id: 'worker-3', pods: c }]);
    const found = m.rows.flatMap((r) => r.drift.map((d) => `${workloadKey(r.workload)} ${d.kind}${d.container ? ` ${d.container}` : ''} ${Object.keys(d.values).join(',')}`));
    const main = (w: ReturnType<typeof workloadOf>) => String(mainOf(base.find((p) => inWorkload(p, w))!).name);
    expect(found.sort()).toEqual(
      [
        `${workloadKey(deployment)} image ${main(deployment)} worker-1,worker-2,worker-3`,
        `${workloadKey(deployment)} resources ${main(deployment)} worker-1,worker-2,worker-3`,
        `${workloadKey(daemonSet)} missing worker-1,worker-2,worker-3`,
        `${workloadKey(stateful)} args ${main(stateful)} worker-1,worker-2,worker-3`,
        `${workloadKey(stateful)} env ${main(stateful)} worker-1,worker-2,worker-3`,
        'kube-system/Static/etcd args etcd worker-1,worker-2,worker-3',
      ].sort(),
    );
    const image = m.rows.find((r) => r.key === workloadKey(deployment))!.drift.find((d) => d.kind === 'image')!;
    expect(image.values['worker-2']).toBe('registry.example.internal/acme/hotfix:9.9.9');
    expect(image.values['worker-1']).toBe(mainOf(base.find((p) => inWorkload(p, deployment))!).image);
    expect(m.rows.find((r) => r.key === workloadKey(daemonSet))!.drift[0]!.values).toEqual({ 'worker-1': 'present', 'worker-2': 'missing', 'worker-3': 'present' });
    expect(m.drifted).toBe(4);

    // The CSV: each source's line says its own value of each drifting field; `missing` only where it is missing.
    const csv = matrixToCsv(m).trimEnd().split('\r\n');
    const lineOf = (w: ReturnType<typeof workloadOf>, source: string) => csv.find((l) => l.startsWith(`${w.namespace},${w.kind},${w.name},${source},`))!;
    const driftCells = (line: string) => line.split(',').slice(9).join(',');
    expect(driftCells(lineOf(daemonSet, 'worker-1'))).toBe(',');
    expect(driftCells(lineOf(daemonSet, 'worker-2'))).toBe('missing,');
    const m2 = main(deployment);
    expect(driftCells(lineOf(deployment, 'worker-2'))).toBe(
      csvField(`image:${m2} resources:${m2}`) + ',' + csvField(JSON.stringify({ [`image:${m2}`]: 'registry.example.internal/acme/hotfix:9.9.9', [`resources:${m2}`]: '{"limits":{"memory":"1Gi"}}' })),
    );
    const ownImage = (line: string) => JSON.parse(line.slice(line.indexOf(',"{') + 1).replace(/^"|"$/g, '').replace(/""/g, '"'))[`image:${m2}`];
    expect(ownImage(lineOf(deployment, 'worker-1'))).toBe(mainOf(base.find((p) => inWorkload(p, deployment))!).image);
    // Env: only the variables that differ, not the whole env.
    const envOf = (line: string) => JSON.parse(JSON.parse(line.slice(line.indexOf(',"{') + 1).replace(/^"|"$/g, '').replace(/""/g, '"'))[`env:${main(stateful)}`]);
    expect(envOf(lineOf(stateful, 'worker-3'))).toEqual([{ name: 'MODE', value: 'debug' }]);
    expect(envOf(lineOf(stateful, 'worker-1')).some((e: { name: string }) => e.name === 'MODE')).toBe(false);
  });

  it("does not call a CronJob's runs env drift for their per-run names, and shows a real env change alone", () => {
    const run = podsOf(nodePods('worker-1', 110), 'CronJob')[0]!;
    const container = String(containers(run)[0]!.name);
    const asRun = (job: string, pod: string, logLevel = 'info') =>
      edited(run, (copy) => {
        meta(copy).name = pod;
        (meta(copy).ownerReferences as PodObject[])[0]!.name = job;
        containers(copy)[0]!.env = [
          { name: 'JOB_NAME', value: job },
          { name: 'REPORT', value: `/reports/${pod}.json` },
          { name: 'LOG_LEVEL', value: logLevel },
        ];
      });
    const alike = buildWorkloadMatrix([
      { id: 'worker-1', pods: [asRun('backup-29926581', 'backup-29926581-abcde')] },
      { id: 'worker-2', pods: [asRun('backup-29926640', 'backup-29926640-xyz12')] },
    ]);
    expect(alike.rows.map((r) => workloadKey(r.workload))).toEqual([workloadKey({ ...workloadOf(run), name: 'backup' })]);
    expect(alike.drifted).toBe(0);

    const changed = buildWorkloadMatrix([
      { id: 'worker-1', pods: [asRun('backup-29926581', 'backup-29926581-abcde')] },
      { id: 'worker-2', pods: [asRun('backup-29926640', 'backup-29926640-xyz12', 'debug')] },
    ]);
    expect(changed.rows[0]!.drift.map((d) => d.kind)).toEqual(['env']);
    const lines = matrixToCsv(changed).trimEnd().split('\r\n');
    expect(lines[2]!.endsWith(`,env:${container},${csvField(JSON.stringify({ [`env:${container}`]: '[{"name":"LOG_LEVEL","value":"debug"}]' }))}`)).toBe(true);
  });

  it('gives the same matrix whether the values pods have alike are shared or not, however few are kept', () => {
    const a = nodePods('worker-1');
    const b = nodePods('worker-2').map((p, i) => (i % 7 === 0 ? edited(p, (copy) => (containers(copy)[0]!.image = `other:${i}`)) : p));
    const sharedBy = (shared: SharedValues) =>
      runAtOnce(workloadMatrixSteps([{ id: 'worker-1', pods: a.map((p) => matrixPodOf(p, shared)) }, { id: 'worker-2', pods: b.map((p) => matrixPodOf(p, shared)) }]));
    const once = buildWorkloadMatrix([{ id: 'worker-1', pods: a }, { id: 'worker-2', pods: b }]);
    expect(once.drifted).toBeGreaterThan(0);
    expect(sharedBy(new SharedValues(1))).toEqual(once);
    expect(sharedBy(new SharedValues(3))).toEqual(once);
  });

  it('gives every matrix pod one hidden class, whatever its workload', () => {
    // The core holds a matrix pod per pod of every live node: V8 gave each spread from the shared workload a
    // hidden class of its own (~300 bytes a pod, in a heap its full collection could not give back).
    setFlagsFromString('--allow-natives-syntax');
    const sameHiddenClass = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
    const shared = new SharedValues();
    const pods = [...nodePods('worker-1', 110), ...nodePods('worker-2', 110)].map((p) => matrixPodOf(p, shared));
    expect(new Set(pods.map((p) => p.key)).size).toBeGreaterThan(10);
    expect(pods.filter((p) => !sameHiddenClass(p, pods[0]!))).toEqual([]);
  });

  it('shows a failed source as unknown, never as missing pods or zeros', () => {
    const m = buildWorkloadMatrix([{ id: 'worker-1', pods: nodePods('worker-1') }, { id: 'worker-9', error: 'No SSH answer from 10.0.0.9:22 within 20 s' }]);
    expect(m.drifted).toBe(0);
    expect(m.rows.every((r) => r.cells[1] === null)).toBe(true);
    expect(m.sources[1]).toEqual({ id: 'worker-9', error: 'No SSH answer from 10.0.0.9:22 within 20 s' });
    const csv = matrixToCsv(m).split('\r\n');
    expect(csv[2]).toMatch(/,worker-9,error,,,,,,$/);
  });

  it('does not call a field a mask left out drift', () => {
    const masked = nodePods('worker-2').map((p) => ({ metadata: p.metadata, status: p.status }));
    const m = buildWorkloadMatrix([{ id: 'worker-1', pods: nodePods('worker-1') }, { id: 'worker-2', pods: masked }]);
    expect(m.drifted).toBe(0);
  });
});

describe('matrix export', () => {
  it('writes one CSV line per workload and source, quoting as RFC 4180 and defusing formulas', () => {
    expect(csvField('a,"b"')).toBe('"a,""b"""');
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField(-1)).toBe('-1');
    const m = buildWorkloadMatrix([{ id: 'worker-1', pods: nodePods('worker-1', 8) }, { id: 'worker-2', pods: [] }]);
    const lines = matrixToCsv(m).trimEnd().split('\r\n');
    expect(lines[0]).toBe('namespace,kind,workload,source,state,pods,ready_pods,phase,restarts,drift,drift_values');
    expect(lines).toHaveLength(1 + m.rows.length * 2);
    const r = m.rows[0]!;
    expect(lines[1]).toBe(`${r.workload.namespace},${r.workload.kind},${r.workload.name},worker-1,present,${r.cells[0]!.pods},${r.cells[0]!.readyPods},${Object.keys(r.cells[0]!.phases).length === 1 ? Object.keys(r.cells[0]!.phases)[0] : expect.anything()},${r.cells[0]!.restarts},,`);
    // The workload missing on worker-2 is said so on worker-2's line only.
    expect(lines[2]).toMatch(r.drift.length ? /,missing,$/ : /,,$/);
  });

  it('writes JSON that carries every source, row and drift', () => {
    const m = buildWorkloadMatrix([{ id: 'a', pods: nodePods('a', 10) }, { id: 'b', pods: nodePods('b', 10) }]);
    const json = JSON.parse(matrixToJson(m));
    expect(json).toMatchObject({ kind: 'NodescopeWorkloadMatrix', version: 1, drifted: 0, sources: [{ id: 'a' }, { id: 'b' }] });
    expect(json.rows).toHaveLength(m.rows.length);
    expect(json.rows[0]).toEqual({ workload: m.rows[0]!.workload, cells: m.rows[0]!.cells, drift: [] });
  });
});
