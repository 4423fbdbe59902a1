import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readKubectlYaml } from '../pod/kubectl-yaml-reader';
import type { PodObject } from '../pod/pod-tree';
import { generatePods } from '../sim/pod-generator';
import { chooseExportTarget, writeExport } from './pod-export';

const pods = generatePods(12, { seed: 3, nodeName: 'export-node', nowMs: Date.UTC(2026, 0, 2, 3, 4, 5) });

describe('YAML export', () => {
  it('writes a kubectl List in YAML that reads back to the JSON export of the same pods', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ns-export-yaml-'));
    await writeExport({ path: join(dir, 'pods.yaml'), replace: false }, pods, 'yaml');
    await writeExport({ path: join(dir, 'pods.json'), replace: false }, pods, 'list');
    const yaml = readFileSync(join(dir, 'pods.yaml'), 'utf8');
    expect(yaml.startsWith('apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Pod\n')).toBe(true);
    expect(yaml.endsWith('kind: List\nmetadata:\n  resourceVersion: ""\n')).toBe(true);
    expect(readKubectlYaml(yaml)).toEqual([JSON.parse(readFileSync(join(dir, 'pods.json'), 'utf8'))]);
  });

  it('says which values kubectl would have refused to print, and still writes YAML that reads back the same', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ns-export-yaml-'));
    const meta = pods[0]!.metadata as PodObject;
    const odd = { ...pods[0]!, metadata: { ...meta, annotations: { note: 'bell\u0007 and del\u007f' } } };
    const result = await writeExport({ path: join(dir, 'pods.yaml'), replace: false }, [odd], 'yaml');
    expect(result.warning).toMatch(/kubectl would refuse to print these pods as YAML .*items\[0\]\.metadata\.annotations\.note \(U\+007F\)/);
    const [list] = readKubectlYaml(readFileSync(join(dir, 'pods.yaml'), 'utf8')) as [{ items: { metadata: PodObject }[] }];
    expect(list.items[0]!.metadata.annotations).toEqual({ note: 'bell\u0007 and del\u007f' });
  });

  it('suggests a .yaml file in the save dialog and accepts .yml, but not other names', async () => {
    let suggested = '';
    await chooseExportTarget({
      path: undefined,
      replace: false,
      format: 'yaml',
      nodeLabel: 'worker 1',
      exportDir: '/exports',
      pickSavePath: async (s) => ((suggested = s), null),
    });
    expect(suggested).toBe('/exports/worker_1-pods.yaml');
    const dir = mkdtempSync(join(tmpdir(), 'ns-export-yaml-'));
    await expect(writeExport({ path: join(dir, 'pods.yml'), replace: false }, pods, 'yaml')).resolves.toEqual({ bytes: expect.any(Number) });
    await expect(writeExport({ path: join(dir, 'pods.txt'), replace: false }, pods, 'yaml')).rejects.toThrow(/\.yaml, \.yml/);
  });
});
