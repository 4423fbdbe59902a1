import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseFieldMask } from '../mask/field-mask';
import { coverage } from '../mask/mask-coverage';
import { podBytesListToKubectl } from '../pod/kubectl-json';
import { kubectlJsonToYaml } from '../pod/kubectl-yaml';
import { webPodBytes } from '../pod/testdata/handmade-pods';
import { startSimulatedKubelet } from '../sim/kubelet-server';
import { EXIT } from './exit-codes';
import { nodescope as run } from './testing/run-nodescope';

const dir = mkdtempSync(join(tmpdir(), 'nodescope-mask-cli-'));
// The CLI finds saved presets where the app keeps them: $XDG_CONFIG_HOME/nodescope/presets.json.
const config = join(dir, 'config');
mkdirSync(join(config, 'nodescope'), { recursive: true });
writeFileSync(join(config, 'nodescope', 'presets.json'), JSON.stringify({ version: 1, presets: [{ name: 'mine', mask: 'metadata.labels' }] }));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const nodescope = (args: string[], cwd?: string) => run(args, { env: { XDG_CONFIG_HOME: config }, ...(cwd ? { cwd } : {}) });

/** Every leaf path of a JSON value, lists walked through (as mask paths are). */
function leafPaths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v) => leafPaths(v, prefix));
  if (value === null || typeof value !== 'object') return [prefix];
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return [prefix];
  return entries.flatMap(([k, v]) => leafPaths(v, prefix ? `${prefix}.${k}` : k));
}

describe('nodescope mask', () => {
  it('prints the schema tree under a path, one field a line with its type, and names a typo', async () => {
    const r = await nodescope(['mask', 'tree', 'status.containerStatuses']);
    expect(r.code, r.stderr).toBe(EXIT.ok);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toContainEqual(expect.stringMatching(/^status\.containerStatuses\.ready +<boolean>$/));
    expect(lines).toContainEqual(expect.stringMatching(/^status\.containerStatuses\.state\.waiting\.reason +<string>$/));
    expect(lines.every((l) => l.startsWith('status.containerStatuses.'))).toBe(true);
    const all = await nodescope(['mask', 'tree']);
    expect(all.stdout).toMatch(/^metadata\.labels +<map\[string\]string>$/m);
    expect(all.stdout).toMatch(/^spec\.containers +<\[\]Container>$/m);
    expect(all.stdout).not.toMatch(/^metadata\.labels\./m);
    const typo = await nodescope(['mask', 'tree', 'metadata.lables']);
    expect(typo.code).toBe(EXIT.usage);
    expect(typo.stderr).toContain('did you mean "metadata.labels"?');
  }, 30_000);

  it('lists built-in and saved presets with their paths', async () => {
    const r = await nodescope(['mask', 'presets']);
    expect(r.code, r.stderr).toBe(EXIT.ok);
    expect(r.stdout).toMatch(/^@identity\tbuilt-in\tmetadata\.name,metadata\.namespace,metadata\.uid/m);
    expect(r.stdout).toMatch(/^@mine\tsaved\tmetadata\.labels$/m);
    const help = await nodescope(['--help']);
    expect(help.stdout).toMatch(/^  mask +list the pod fields a --mask can name \(tree\) and the mask presets \(presets\)$/m);
  }, 30_000);

  it('takes a --local socket relative to the working directory, with a mask as without', async () => {
    const k = await startSimulatedKubelet({ socketPath: join(dir, 'here.sock'), pods: 3 });
    try {
      for (const args of [[], ['--mask', 'metadata.name']]) {
        const r = await nodescope(['pods', '--local', 'here.sock', '-o', 'ndjson', ...args], dir);
        expect(r.code, r.stderr).toBe(EXIT.ok);
        expect(r.stdout.trimEnd().split('\n')).toHaveLength(3);
      }
    } finally {
      await k.stop();
    }
  }, 30_000);

  it('uses and extends a preset with --mask, sending it to the kubelet, and prints exactly its fields', async () => {
    const shipped = join(dir, 'shipped.sock');
    const documented = join(dir, 'documented.sock');
    const k = await startSimulatedKubelet({ socketPath: shipped, documentedSocketPath: documented, pods: 5 });
    try {
      const mask = '@readiness,@mine,metadata.name';
      const viaShipped = await nodescope(['export', '--local', shipped, '--mask', mask]);
      const viaDocumented = await nodescope(['export', '--local', documented, '--api', 'documented', '--mask', mask]);
      expect(viaShipped.code, viaShipped.stderr).toBe(EXIT.ok);
      expect(viaDocumented.code, viaDocumented.stderr).toBe(EXIT.ok);
      // The shipped kubelet ignores the mask, the documented one honours it: the result is the same.
      expect(viaShipped.stderr).toContain('ignores field masks');
      expect(viaDocumented.stderr).not.toContain('ignores field masks');
      expect(viaDocumented.stdout).toBe(viaShipped.stdout);
      const paths = parseFieldMask('status.phase,status.conditions,status.containerStatuses.name,status.containerStatuses.ready,status.containerStatuses.restartCount,status.containerStatuses.state,status.initContainerStatuses.name,status.initContainerStatuses.ready,status.initContainerStatuses.restartCount,status.initContainerStatuses.state,metadata.labels,metadata.name').paths;
      const items = (JSON.parse(viaShipped.stdout) as { items: Record<string, unknown>[] }).items;
      expect(items).toHaveLength(5);
      for (const { apiVersion, kind, ...pod } of items) {
        expect([apiVersion, kind]).toEqual(['v1', 'Pod']);
        for (const path of leafPaths(pod)) expect(coverage(paths, path), path).not.toBe('none');
        expect(typeof (pod.metadata as { name: unknown }).name).toBe('string');
        expect(pod.spec).toBeUndefined();
      }
      const unknown = await nodescope(['pods', '--local', shipped, '--mask', '@readyness']);
      expect(unknown.code).toBe(EXIT.usage);
      expect(unknown.stderr).toContain('did you mean "@readiness"?');
      // A map is selected whole, here as in the app and the builder.
      const mapKey = await nodescope(['pods', '--local', shipped, '--mask', 'metadata.labels.app']);
      expect(mapKey.code).toBe(EXIT.usage);
      expect(mapKey.stderr).toContain('"metadata.labels" is a map, which can only be selected whole');
    } finally {
      await k.stop();
    }
  }, 60_000);

  it('uses a preset with --mask on a snapshot file too: pods, get, export and watch print exactly its fields, in JSON and YAML', async () => {
    const file = join(dir, 'pods.json');
    writeFileSync(file, podBytesListToKubectl([webPodBytes()]).bytes);
    const uid = '0b6c6f5e-7d52-4a39-9b2e-2f5b2b7f2f11';
    const mask = ['--mask', '@mine,metadata.name'];
    const expected = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-0', labels: { Z: 'z', a: '1', b: '2', é: 'x' } } };
    const get = await nodescope(['get', file, uid, ...mask]);
    expect(get.code, get.stderr).toBe(EXIT.ok);
    expect(JSON.parse(get.stdout)).toEqual(expected);
    const items = async (args: string[]) => {
      const r = await nodescope(args);
      expect(r.code, r.stderr).toBe(EXIT.ok);
      return (JSON.parse(r.stdout) as { items: unknown[] }).items;
    };
    expect(await items(['pods', file, '-o', 'json', ...mask])).toEqual([expected]);
    expect(await items(['export', file, ...mask])).toEqual([expected]);
    // YAML is kubectl's YAML of exactly that JSON: no spec or status standing in for what was left out.
    const yaml = await nodescope(['get', file, uid, '-o', 'yaml', ...mask]);
    expect(yaml.stdout).toBe(kubectlJsonToYaml(get.stdout).yaml);
    const exportedYaml = await nodescope(['export', file, '-o', 'yaml', ...mask]);
    expect(exportedYaml.code, exportedYaml.stderr).toBe(EXIT.ok);
    expect(exportedYaml.stdout).toMatch(/^  metadata:\n    labels:\n(      .*\n){4}    name: web-0\n/m);
    expect(exportedYaml.stdout).not.toMatch(/spec:|status:/);
    const watched = await nodescope(['watch', file, '-o', 'ndjson', ...mask]);
    expect(JSON.parse(watched.stdout)).toEqual({ type: 'ADDED', object: expected });
  }, 60_000);
});
