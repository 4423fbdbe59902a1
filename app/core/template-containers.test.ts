import { describe, expect, it } from 'vitest';
import { containerAspects } from '../fleet/workload-drift';
import { workloadKey, workloadOf } from '../fleet/workload-identity';
import { matrixPodOf, workloadMatrixSteps } from '../fleet/workload-matrix';
import { parseFieldMask } from '../mask/field-mask';
import { decodePod } from '../pod/decode';
import { decodePodFields } from '../pod/decode-fields';
import { encodePod } from '../pod/encode';
import type { PodObject, PodTree } from '../pod/pod-tree';
import { ROW_READ_PATHS } from '../pod/view/pod-field-sources';
import { PodGenerator } from '../sim/pod-generator';
import { SharedValues } from '../util/shared-values';
import { runAtOnce } from '../util/time-slices';
import { TemplateContainers } from './template-containers';

const NOW = Date.UTC(2026, 10, 28, 8);
const rowMask = parseFieldMask(ROW_READ_PATHS.join(','));

/** A pod as the live link has it: its bytes and the tree of its row's fields; and its whole tree. */
function received(pod: PodTree) {
  const bytes = encodePod(pod);
  return { whole: decodePod(bytes).pod, bytes, row: decodePodFields(bytes, rowMask).pod };
}

function nodePods(nodeName: string, edit: (pod: PodTree) => PodTree = (p) => p) {
  const g = new PodGenerator({ seed: 3, nodeName });
  return Array.from({ length: 80 }, () => received(edit(g.existing(NOW))));
}

const meta = (p: PodTree) => p.metadata as PodObject;
const mainContainer = (p: PodTree) => ((p.spec as PodObject).containers as PodObject[])[0]!;

describe('TemplateContainers', () => {
  it("gives each pod its containers as its whole tree gives them, one object per template's replicas", () => {
    const templates = new TemplateContainers(new SharedValues());
    const seen = new Map<string, unknown>();
    let sharedByReplicas = 0;
    for (const node of ['worker-1', 'worker-2']) {
      for (const { whole, bytes, row } of nodePods(node)) {
        const containers = templates.of(bytes, row, 'pod');
        expect(containers).toEqual(containerAspects(whole));
        const key = `${workloadKey(workloadOf(whole))} ${JSON.stringify([...containers])}`;
        if (seen.get(key) === containers) sharedByReplicas++;
        seen.set(key, containers);
      }
    }
    expect(sharedByReplicas).toBeGreaterThan(40);
  });

  it("replaces a pod's own name in its env for that pod only, though its replicas send the same bytes", () => {
    const [a, b] = nodePods('worker-1').filter(({ whole }) => workloadOf(whole).kind === 'Deployment');
    // Both replicas' env names the first one (a literal, as a template might hold): the same bytes for both.
    const withEnv = (pod: PodTree) => {
      const copy = structuredClone(pod);
      mainContainer(copy).env = [{ name: 'PEER', value: `http://${String(meta(a!.whole).name)}:8080` }];
      return received(copy);
    };
    const templates = new TemplateContainers(new SharedValues());
    for (const pod of [withEnv(a!.whole), withEnv(b!.whole), withEnv(a!.whole)]) {
      expect(templates.of(pod.bytes, pod.row, 'pod')).toEqual(containerAspects(pod.whole));
    }
    const envOf = (pod: ReturnType<typeof withEnv>) => templates.of(pod.bytes, pod.row, 'pod').get(String(mainContainer(pod.whole).name))!.env;
    expect(envOf(withEnv(a!.whole))).toBe('[{"name":"PEER","value":"http://<pod-name>:8080"}]');
    expect(envOf(withEnv(b!.whole))).toContain(String(meta(a!.whole).name));
  });

  it('tells apart two pods of one workload whose containers differ in one field, and the matrix shows the drift', () => {
    const deployment = workloadOf(nodePods('worker-1').find(({ whole }) => workloadOf(whole).kind === 'Deployment')!.whole);
    const stateful = workloadOf(nodePods('worker-1').find(({ whole }) => workloadOf(whole).kind === 'StatefulSet')!.whole);
    const inWorkload = (p: PodTree, w: typeof deployment) => workloadKey(workloadOf(p)) === workloadKey(w);
    const changed = (p: PodTree) => {
      if (!inWorkload(p, deployment) && !inWorkload(p, stateful)) return p;
      const copy = structuredClone(p);
      if (inWorkload(p, deployment)) mainContainer(copy).image = `${String(mainContainer(copy).image)}-hotfix`;
      else mainContainer(copy).env = [...((mainContainer(copy).env as PodObject[] | undefined) ?? []), { name: 'MODE', value: 'debug' }];
      return copy;
    };
    // One cache for both nodes, as the app has: worker-2's pods differ from worker-1's replicas in one field.
    const shared = new SharedValues();
    const templates = new TemplateContainers(shared);
    const source = (id: string, pods: ReturnType<typeof nodePods>) => ({
      id,
      pods: pods.map(({ bytes, row }) => matrixPodOf(row, shared, undefined, templates.of(bytes, row, 'pod'))),
    });
    const matrix = runAtOnce(workloadMatrixSteps([source('worker-1', nodePods('worker-1')), source('worker-2', nodePods('worker-2', changed))]));
    const drift = matrix.rows.flatMap((r) => r.drift.map((d) => `${r.key} ${d.kind}`));
    expect(drift.sort()).toEqual([`${workloadKey(deployment)} image`, `${workloadKey(stateful)} env`].sort());
  });
});
