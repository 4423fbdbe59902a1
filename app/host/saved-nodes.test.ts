import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SshNodeSpecSchema } from '../contract';
import { loadSavedNodes, saveNodes, savedNodesPath, setAsideSavedNodes } from './saved-nodes';

describe('saved nodes', () => {
  it('round-trips the node list in a folder and file only the user can read', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'ns-saved-')), 'state');
    expect(await loadSavedNodes(dir)).toEqual([]);
    const nodes = [
      { spec: { kind: 'ssh' as const, host: 'node-1', user: 'ops', port: 2222, sudo: true }, mask: 'metadata.name,status.phase' },
      { spec: { kind: 'ssh' as const, host: 'bastioned', jumpHost: 'ops@bastion' }, mask: '' },
    ];
    await saveNodes(dir, nodes);
    expect(await loadSavedNodes(dir)).toEqual(nodes);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(savedNodesPath(dir)).mode & 0o777).toBe(0o600);
  });

  it('writes a node without a mask as version 1 wrote it, and a masked one with an extra field older readers drop', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ns-saved-'));
    await saveNodes(dir, [
      { spec: { kind: 'ssh', host: 'plain' }, mask: '' },
      { spec: { kind: 'ssh', host: 'masked' }, mask: 'metadata.name' },
    ]);
    expect(JSON.parse(readFileSync(savedNodesPath(dir), 'utf8'))).toEqual({
      version: 1,
      nodes: [{ host: 'plain' }, { host: 'masked', mask: 'metadata.name' }],
    });
    // The schema a Nodescope from before saved masks reads the file with: it still takes the list.
    const before = z.object({ version: z.literal(1), nodes: z.array(SshNodeSpecSchema.omit({ kind: true })) });
    expect(before.parse(JSON.parse(readFileSync(savedNodesPath(dir), 'utf8'))).nodes).toEqual([{ host: 'plain' }, { host: 'masked' }]);
  });

  it('loads a node list saved before masks were', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ns-saved-'));
    writeFileSync(savedNodesPath(dir), '{\n  "version": 1,\n  "nodes": [\n    {\n      "host": "node-1",\n      "port": 2222\n    }\n  ]\n}\n');
    expect(await loadSavedNodes(dir)).toEqual([{ spec: { kind: 'ssh', host: 'node-1', port: 2222 }, mask: '' }]);
  });

  it('keeps a local socket source where an older Nodescope, which knows only SSH nodes, still reads the list', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ns-saved-'));
    const nodes = [
      { spec: { kind: 'ssh' as const, host: 'node-1' }, mask: '' },
      { spec: { kind: 'unix' as const, label: 'sim', socketPath: '/run/sim/pods.sock' }, mask: 'status.phase' },
    ];
    await saveNodes(dir, nodes);
    expect(await loadSavedNodes(dir)).toEqual(nodes);
    const file = JSON.parse(readFileSync(savedNodesPath(dir), 'utf8'));
    expect(file.nodes).toEqual([{ host: 'node-1' }]);
    const before = z.object({ version: z.literal(1), nodes: z.array(SshNodeSpecSchema.omit({ kind: true })) });
    expect(before.parse(file).nodes).toEqual([{ host: 'node-1' }]);
  });

  it('leaves off a saved mask that no longer parses or is not text, saying why, and keeps the nodes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ns-saved-'));
    writeFileSync(
      savedNodesPath(dir),
      JSON.stringify({
        version: 1,
        nodes: [
          { host: 'typo', mask: 'metadata.name,status.phaze' },
          { host: 'number', mask: 42 },
          { host: 'fine', mask: ' status.phase ' },
        ],
      }),
    );
    const [typo, number, fine] = await loadSavedNodes(dir);
    expect(typo).toEqual({
      spec: { kind: 'ssh', host: 'typo' },
      mask: '',
      keptMask: 'metadata.name,status.phaze',
      maskProblem: expect.stringContaining('"metadata.name,status.phaze" no longer parses'),
    });
    expect(typo!.maskProblem).toMatch(/phaze/);
    expect(number).toEqual({ spec: { kind: 'ssh', host: 'number' }, mask: '', keptMask: 42, maskProblem: 'The saved field mask 42 is not text' });
    // Written back as read, so saving other nodes does not lose it.
    await saveNodes(dir, [typo!, number!, fine!]);
    expect(JSON.parse(readFileSync(savedNodesPath(dir), 'utf8')).nodes.map((n: { mask?: unknown }) => n.mask)).toEqual(['metadata.name,status.phaze', 42, 'status.phase']);
    expect(fine).toEqual({ spec: { kind: 'ssh', host: 'fine' }, mask: 'status.phase' });
  });

  it('names the file and what is wrong with it when it is not a node list', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ns-saved-'));
    writeFileSync(savedNodesPath(dir), '{"version":1,"nodes":[{"port":"x"}]}');
    await expect(loadSavedNodes(dir)).rejects.toThrow(`${savedNodesPath(dir)} is not a valid Nodescope node list: nodes.0.host`);
    writeFileSync(savedNodesPath(dir), 'not json');
    await expect(loadSavedNodes(dir)).rejects.toThrow(/is not a valid Nodescope node list: it is not JSON/);
  });

  it('sets an unreadable list aside whole, under a name that says when', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ns-saved-'));
    writeFileSync(savedNodesPath(dir), 'not json');
    const at = new Date('2026-11-21T08:30:05.123Z');
    const kept = await setAsideSavedNodes(dir, at);
    expect(kept).toBe(`${savedNodesPath(dir)}.unreadable-20261121T083005.123Z`);
    expect(readFileSync(kept, 'utf8')).toBe('not json');
    expect(existsSync(savedNodesPath(dir))).toBe(false);
    expect(await loadSavedNodes(dir)).toEqual([]);
    // Another broken list set aside in the same millisecond gets a name of its own.
    writeFileSync(savedNodesPath(dir), 'also not json');
    const second = await setAsideSavedNodes(dir, at);
    expect(second).toBe(`${kept}-1`);
    expect(readFileSync(kept, 'utf8')).toBe('not json');
    expect(readFileSync(second, 'utf8')).toBe('also not json');
  });
});
