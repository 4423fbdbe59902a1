import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { NodeSpecSchema, type NodeSpec } from '../contract';
import { writeFileAtomic } from '../fs/atomic-file';

/** The nodes the user added, so they come back next time. Connection settings only — no secrets. */
const SavedNodesSchema = z.object({ version: z.literal(1), nodes: z.array(NodeSpecSchema) });

export function savedNodesPath(stateDir: string): string {
  return join(stateDir, 'nodes.json');
}

export async function loadSavedNodes(stateDir: string): Promise<NodeSpec[]> {
  const path = savedNodesPath(stateDir);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  let parsed;
  try {
    parsed = SavedNodesSchema.safeParse(JSON.parse(text));
  } catch {
    parsed = undefined;
  }
  if (!parsed?.success) {
    throw new Error(`${path} is not a valid Nodescope node list; fix it or move it away (the nodes can be added again).`);
  }
  return parsed.data.nodes;
}

export async function saveNodes(stateDir: string, nodes: NodeSpec[]): Promise<void> {
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  await writeFileAtomic(savedNodesPath(stateDir), `${JSON.stringify({ version: 1, nodes }, null, 2)}\n`, 0o600);
}
