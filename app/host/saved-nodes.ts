import { access, link, mkdir, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { AddNodeSpecSchema, SshNodeSpecSchema, type AddNodeSpec } from '../contract';
import { writeFileAtomic } from '../fs/atomic-file';
import { readSmallFile, type SmallFileLimit } from '../fs/read-small-file';
import { BUILT_IN_PRESETS } from '../mask/mask-presets';
import { checkMask } from '../core/node-mask';

/**
 * The nodes the user added, so they come back next time: connection settings and field mask, no secrets.
 * The mask is an optional field of version 1 rather than a version 2: readers without it parse each node
 * with NodeSpecSchema, which drops fields it does not know, so an older Nodescope still opens the file
 * (where a new version number would make it refuse the whole list). The mask is checked on its own
 * (unknown here), so a hand-edited one costs only that node's mask, never the list.
 * SSH nodes are written as version 1 always wrote them, without a kind; every other kind the user adds
 * (unix sockets, and any kind AddNodeSpecSchema takes) goes in a `sources` list an older Nodescope
 * ignores, since its node schema would refuse them and with them the whole file.
 */
const Mask = { mask: z.unknown().optional() };
/** The one kind version 1 had, written without a kind. */
const KINDLESS = SshNodeSpecSchema.shape.kind.value;
/** Any other kind a user adds (AddNodeSpecSchema: a new kind there is saved here too), with its mask. */
const SavedSourceSchema = z
  .looseObject({ kind: z.string().refine((kind) => kind !== KINDLESS, `${KINDLESS} nodes go in the nodes list`), ...Mask })
  .transform(({ mask, ...spec }, ctx) => {
    const parsed = AddNodeSpecSchema.safeParse(spec);
    if (parsed.success) return { ...parsed.data, mask };
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    return z.NEVER;
  });
const SavedNodesSchema = z.object({
  version: z.literal(1),
  nodes: z.array(SshNodeSpecSchema.extend({ kind: z.literal(KINDLESS).default(KINDLESS), ...Mask })),
  sources: z.array(SavedSourceSchema).optional(),
});

/** One remembered node. */
export interface SavedNode {
  spec: AddNodeSpec;
  /** The field mask its list and watch use; '' for none. */
  mask: string;
  /**
   * A saved mask this version could not use, written back as it was read until the user decides
   * (sets a mask or connects): saving another node must not drop it, nor must an older Nodescope
   * drop a newer one's.
   */
  keptMask?: unknown;
}

/** A remembered node as read back: maskProblem says why its saved mask (keptMask) was left off; mask is then ''. */
export interface LoadedNode extends SavedNode {
  maskProblem?: string;
}

/** Thousands of nodes with masks stay far below this; more is not a list Nodescope wrote. */
const NODE_LIST: SmallFileLimit = { what: 'node list', maxBytes: 16 << 20 };

export function savedNodesPath(stateDir: string): string {
  return join(stateDir, 'nodes.json');
}

export async function loadSavedNodes(stateDir: string): Promise<LoadedNode[]> {
  const path = savedNodesPath(stateDir);
  let text: string;
  try {
    text = (await readSmallFile(path, NODE_LIST)).toString('utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`${path} is not a valid Nodescope node list: it is not JSON (${(err as Error).message})`);
  }
  const parsed = SavedNodesSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${path} is not a valid Nodescope node list: ${issue.path.join('.') || 'the top level'}: ${issue.message}`);
  }
  return [...parsed.data.nodes, ...(parsed.data.sources ?? [])].map(({ mask, ...spec }) => ({ spec, ...readSavedMask(mask) }));
}

function readSavedMask(saved: unknown): { mask: string; maskProblem?: string; keptMask?: unknown } {
  if (saved === undefined) return { mask: '' };
  if (typeof saved !== 'string') return { mask: '', keptMask: saved, maskProblem: `The saved field mask ${shorten(JSON.stringify(saved))} is not text` };
  const check = checkMask(saved, BUILT_IN_PRESETS);
  if (check.ok) return { mask: saved.trim() };
  return { mask: '', keptMask: saved, maskProblem: `The saved field mask "${shorten(saved)}" no longer parses: ${check.error}` };
}

/** Keeps a hand-edited wall of text from drowning the message about it. */
function shorten(text: string): string {
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}

/**
 * Moves an unreadable node list out of the way, keeping it whole for the user to repair, so the app
 * can start without it and save new nodes without writing over it. Returns where it went. A hard link
 * then unlink never replaces an earlier copy (rename would, if two starts fell in one millisecond).
 */
export async function setAsideSavedNodes(stateDir: string, now = new Date()): Promise<string> {
  const from = savedNodesPath(stateDir);
  const base = `${from}.unreadable-${now.toISOString().replace(/[-:]/g, '')}`;
  for (let n = 0; ; n++) {
    const kept = n === 0 ? base : `${base}-${n}`;
    try {
      await link(from, kept);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') continue;
      // File systems without hard links: rename, having checked the name is free.
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV') throw err;
      if (await exists(kept)) continue;
      await rename(from, kept);
      return kept;
    }
    await unlink(from);
    return kept;
  }
}

const exists = (path: string) => access(path).then(() => true, () => false);

export async function saveNodes(stateDir: string, nodes: SavedNode[]): Promise<void> {
  // A node without a mask is written as before masks were saved.
  const entry = ({ spec, mask, keptMask }: SavedNode) => (keptMask !== undefined ? { ...spec, mask: keptMask } : mask ? { ...spec, mask } : spec);
  const kindless = nodes.flatMap((n) => (n.spec.kind === KINDLESS ? [entry(n)] : [])).map(({ kind: _kindless, ...rest }) => rest);
  const sources = nodes.filter((n) => n.spec.kind !== KINDLESS).map(entry);
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  const file = { version: 1, nodes: kindless, ...(sources.length > 0 ? { sources } : {}) };
  await writeFileAtomic(savedNodesPath(stateDir), `${JSON.stringify(file, null, 2)}\n`);
}
