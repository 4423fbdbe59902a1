// `npm run bench -- --json FILE`: besides the printed table, every figure lands in FILE with the fields a
// comparison between runs needs. Only the suite's shape is checked here; its numbers belong to the bench.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'nodescope-bench-json-'));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('writes every figure of the run as JSON with name, value, unit, baseline, ratio, target and met', () => {
  const file = join(dir, 'figures.json');
  const r = spawnSync(process.execPath, ['bin/run-ts.js', 'bench/run.ts', 'pod-generator', '--json', file], { cwd: root, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  const { figures } = JSON.parse(readFileSync(file, 'utf8')) as { figures: Record<string, unknown>[] };
  expect(figures).toHaveLength(1);
  const [f] = figures;
  expect(Object.keys(f!).sort()).toEqual(['baseline', 'met', 'name', 'ratio', 'target', 'unit', 'value']);
  expect(f).toMatchObject({ name: 'generatePods', unit: 'pods/s', target: expect.stringContaining('ratio >=') });
  for (const k of ['value', 'baseline', 'ratio']) expect(f![k]).toBeGreaterThan(0);
  expect(typeof f!.met).toBe('boolean');
  // The printed table stays, with the same figure on its line.
  expect(r.stdout).toMatch(/generatePods\s+[\d,]+ pods\/s\s+[\d.]+x baseline/);
  expect(r.stdout).toContain(`figures written to ${file}`);
});
