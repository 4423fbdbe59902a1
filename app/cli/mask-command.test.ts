import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseFieldMask } from '../mask/field-mask';
import { coverage } from '../mask/mask-coverage';
import { startSimulatedKubelet } from '../sim/kubelet-server';
import { EXIT } from './exit-codes';

const BIN = resolve(__dirname, '..', '..', 'bin', 'nodescope.js');
const dir = mkdtempSync(join(tmpdir(), 'nodescope-mask-cli-'));
// The CLI finds saved presets where the app keeps them: $XDG_CONFIG_HOME/nodescope/presets.json.
const config = join(dir, 'config');
mkdirSync(join(config, 'nodescope'), { recursive: true });
writeFileSync(join(config, 'nodescope', 'presets.json'), JSON.stringify({ version: 1, presets: [{ name: 'mine', mask: 'metadata.labels' }] }));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function nodescope(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, XDG_CONFIG_HOME: config } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((done) => child.once('close', (code) => done({ code, stdout, stderr })));
}

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
});
