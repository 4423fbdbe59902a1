import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSavedNodes, saveNodes, savedNodesPath } from './saved-nodes';

describe('saved nodes', () => {
  it('round-trips the node list in a folder and file only the user can read', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'ns-saved-')), 'state');
    expect(await loadSavedNodes(dir)).toEqual([]);
    const nodes = [{ host: 'node-1', user: 'ops', port: 2222, sudo: true }, { host: 'bastioned', jumpHost: 'ops@bastion' }];
    await saveNodes(dir, nodes);
    expect(await loadSavedNodes(dir)).toEqual(nodes);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(savedNodesPath(dir)).mode & 0o777).toBe(0o600);
  });

  it('names the file and the way out when it is not a node list', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ns-saved-'));
    writeFileSync(savedNodesPath(dir), '{"version":1,"nodes":[{"port":"x"}]}');
    await expect(loadSavedNodes(dir)).rejects.toThrow(`${savedNodesPath(dir)} is not a valid Nodescope node list`);
    writeFileSync(savedNodesPath(dir), 'not json');
    await expect(loadSavedNodes(dir)).rejects.toThrow(/move it away/);
  });
});
