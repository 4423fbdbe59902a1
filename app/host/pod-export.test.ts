import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobProgress } from '../contract';
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
    // The node and the time (app/util/default-file-names.ts).
    expect(suggested).toMatch(/^\/exports\/worker_1-\d{4}-\d\d-\d\dT\d{6}Z-pods\.yaml$/);
    const dir = mkdtempSync(join(tmpdir(), 'ns-export-yaml-'));
    await expect(writeExport({ path: join(dir, 'pods.yml'), replace: false }, pods, 'yaml')).resolves.toEqual({ bytes: expect.any(Number) });
    await expect(writeExport({ path: join(dir, 'pods.txt'), replace: false }, pods, 'yaml')).rejects.toThrow(/\.yaml, \.yml/);
  });
});

describe('export as a job', () => {
  it('reports pods written of all as it goes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ns-export-job-'));
    const seen: JobProgress[] = [];
    await writeExport({ path: join(dir, 'pods.ndjson'), replace: false }, pods, 'ndjson', { budgetMs: 0, progress: (p) => seen.push(p) });
    expect(seen).toEqual(Array.from({ length: pods.length + 1 }, (_, done) => ({ done, total: pods.length })));
    expect(readFileSync(join(dir, 'pods.ndjson'), 'utf8').trimEnd().split('\n')).toHaveLength(pods.length);
  });

  it.each(['list', 'ndjson', 'yaml'] as const)('cancelled mid-export (%s), leaves no file, not even a temporary one, and an existing one as it was', async (format) => {
    const dir = mkdtempSync(join(tmpdir(), 'ns-export-job-'));
    const job = new AbortController();
    const cancelAt = (p: JobProgress) => p.done === 5 && job.abort(new Error('cancelled by the test'));
    const fresh = join(dir, `pods.${format === 'yaml' ? 'yaml' : 'json'}`);
    await expect(writeExport({ path: fresh, replace: false }, pods, format, { budgetMs: 0, signal: job.signal, progress: cancelAt })).rejects.toThrow('cancelled by the test');
    expect(readdirSync(dir)).toEqual([]);

    const kept = join(dir, 'kept.json');
    writeFileSync(kept, 'the earlier export\n');
    const again = new AbortController();
    await expect(writeExport({ path: kept, replace: true }, pods, 'list', { budgetMs: 0, signal: again.signal, progress: (p) => p.done === 5 && again.abort(new Error('cancelled')) })).rejects.toThrow('cancelled');
    expect(readdirSync(dir)).toEqual(['kept.json']);
    expect(readFileSync(kept, 'utf8')).toBe('the earlier export\n');
  });
});
