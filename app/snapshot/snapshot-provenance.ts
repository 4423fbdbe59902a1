/**
 * Where and when a snapshot was taken, kept in a sidecar file `F.nodescope.json` next to the export `F`, so the
 * export itself stays exactly what kubectl prints (docs/snapshots-and-recordings.md). The sidecar records the
 * export's size: one that no longer matches (the export was replaced) is ignored, and the reader says so.
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { SIDECAR_SUFFIX } from '../contract/ws-wire';
import { writeFileAtomic } from '../fs/atomic-file';

export { SIDECAR_SUFFIX };

export interface PodFileProvenance {
  /** The node the pods came from. */
  node?: string;
  /** RFC 3339. */
  takenAt?: string;
  /** What made the file, e.g. 'nodescope export', 'kubectl (API server)'. */
  origin?: string;
}

const VERSION = 1;

export const sidecarPath = (path: string) => `${path}${SIDECAR_SUFFIX}`;

interface Sidecar extends PodFileProvenance {
  nodescopeSnapshot: number;
  file: string;
  bytes: number;
  pods: number;
}

/** Writes the sidecar of `path` (atomically) after the export itself was written. */
export async function writeSnapshotSidecar(path: string, info: { provenance: PodFileProvenance; bytes: number; pods: number }): Promise<void> {
  const sidecar: Sidecar = { nodescopeSnapshot: VERSION, ...info.provenance, file: basename(path), bytes: info.bytes, pods: info.pods };
  await writeFileAtomic(sidecarPath(path), `${JSON.stringify(sidecar, null, 2)}\n`);
}

/** The provenance of `path` from its sidecar, and a note when a sidecar is there but cannot be used. */
export async function readSnapshotSidecar(path: string, fileBytes: number): Promise<{ provenance: PodFileProvenance; note?: string }> {
  const side = sidecarPath(path);
  let text;
  try {
    text = await readFile(side, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { provenance: {} };
    return { provenance: {}, note: `could not read ${side} (${(err as Error).message}); where and when the snapshot was taken is unknown` };
  }
  return sidecarProvenance(text, side, fileBytes);
}

/**
 * The provenance a sidecar's text gives a snapshot of `fileBytes` bytes (`side` names the sidecar in notes): read
 * from the file beside it, or uploaded with it in browser mode.
 */
export function sidecarProvenance(text: string, side: string, fileBytes: number): { provenance: PodFileProvenance; note?: string } {
  let s: Partial<Sidecar>;
  try {
    s = JSON.parse(text) as Partial<Sidecar>;
  } catch {
    return { provenance: {}, note: `${side} is not valid JSON; where and when the snapshot was taken is unknown` };
  }
  if (typeof s !== 'object' || s === null || typeof s.nodescopeSnapshot !== 'number') return { provenance: {}, note: `${side} is not a Nodescope snapshot sidecar; ignored` };
  if (s.bytes !== fileBytes) return { provenance: {}, note: `${side} describes a file of ${s.bytes} bytes, not this one of ${fileBytes}: the export was replaced since; its provenance was ignored` };
  const provenance: PodFileProvenance = {};
  if (typeof s.node === 'string') provenance.node = s.node;
  if (typeof s.takenAt === 'string') provenance.takenAt = s.takenAt;
  if (typeof s.origin === 'string') provenance.origin = s.origin;
  return { provenance };
}
