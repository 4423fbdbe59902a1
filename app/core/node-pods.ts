import { PodDeltasSchema, WatchEventsSchema, type FeedLine, type PodDeltas, type PodRow, type PodRowsSnapshot } from '../contract';
import { ROW_FIELD_SOURCES, unselectedFields, type RowField } from '../pod/view/pod-field-sources';
import { podRowFromTree } from '../pod/view/pod-row-from-tree';
import { applyFieldMask, type FieldMask } from '../mask/field-mask';
import type { DecodedPod, PodTree } from '../pod/pod-tree';
import { decodeStored, isNotHeld, sameStored, type HeldStored, type PodNotHeld, type StoredPod } from '../pod/stored-pod';
import type { MatrixPod } from '../fleet/workload-matrix';
import type { AppEvent } from './app-event';
import { SharedValues } from '../util/shared-values';
import { createFrameBatcher, type FrameBatcher } from './frame-batcher';
import { describePodChange } from './pod-change';

export interface PodEntry {
  /**
   * The pod as received (its bytes from a node, its tree from a file; decodeStored gives its tree), or on a
   * rows-only node only its digest: its whole object is then read from the node (NodeLink.getPod).
   */
  pod: HeldStored;
  /** The row of the pod as shown (after the node's field mask). */
  row: PodRow;
  /** What the fleet matrix reads of the pod as shown, when the source took it as the pod arrived (a live node's link does). */
  matrix?: MatrixPod;
}

/**
 * A pod handed to the set, with its row and its matrix pod under the set's mask when the source took them
 * already (a link does, from the fields it decoded of the pod); a rows-only node's comes as those and its digest only.
 */
export type IncomingPod = (StoredPod & { row?: PodRow; matrix?: MatrixPod }) | (PodNotHeld & { row: PodRow; matrix: MatrixPod });

/** Shared by every node's rows: many pods have the same namespace, node, owner or labels. */
const rowStrings = new SharedValues();

/** `value` as the copy of it other rows hold already. */
export const pooledString = (value: string): string => rowStrings.string(value);

/**
 * The row of a pod as shown through `mask`; a mask may leave out metadata.uid, but the UI still needs
 * each row's identity (`uid`, when known already). The values pods share are held once (pooledString).
 */
export function rowOfPod(pod: PodTree, mask: FieldMask | null, uid = uidOf(pod)): PodRow {
  // The row and its labels are new objects of this pod's own: pooled in place, not copied (this runs for every pod taken in).
  const row = podRowFromTree(mask ? applyFieldMask(pod, mask) : pod);
  const { labels } = row;
  for (const key of Object.keys(labels)) labels[key] = rowStrings.string(labels[key]!);
  row.uid = uid;
  row.namespace = rowStrings.string(row.namespace);
  row.phase = rowStrings.string(row.phase);
  row.status = rowStrings.string(row.status);
  row.node = rowStrings.string(row.node);
  row.ownerKind = rowStrings.string(row.ownerKind);
  row.ownerName = rowStrings.string(row.ownerName);
  return row;
}

/** A queued change; 'reset' means the whole set is sent again. */
type Change = 'reset' | ({ uid: string } & ({ kind: 'upsert'; row: PodRow } | { kind: 'remove' }));

/**
 * One node's converged pod set, as the UI sees it. Changes are coalesced per pod and sent at most
 * once per frame as a podDeltas batch (seq +1 each), with the matching events-feed lines, so a
 * watch at 1,000 events/s costs the UI ~60 small updates a second. Each pod is held once, as it is
 * stored (a live node's: its bytes, the same object the watch and the history hold) with its row; its
 * tree is decoded again where a whole pod is needed.
 */
export class NodePods {
  private readonly entries = new Map<string, PodEntry>();
  private mask: FieldMask | null = null;
  /** The row values the mask leaves out: the feed reports no change in them. */
  private hidden: ReadonlySet<RowField> = new Set();
  private seq = 0;
  private readonly feed: FrameBatcher<FeedLine>;
  private readonly deltas: FrameBatcher<Change>;

  constructor(
    private readonly nodeId: string,
    private readonly emit: (event: AppEvent) => void,
    frameMs?: number,
  ) {
    this.feed = createFrameBatcher((lines) => this.sendFeed(lines), frameMs);
    this.deltas = createFrameBatcher((changes) => this.send(changes), frameMs);
  }

  get size(): number {
    return this.entries.size;
  }

  get(uid: string): PodEntry | undefined {
    return this.entries.get(uid);
  }

  values(): IterableIterator<PodEntry> {
    return this.entries.values();
  }

  /**
   * The pod set is exactly `pods` now (initial list, relist after a reconnect). Against a set already
   * shown, only what differs goes to the UI: a relist of 30,000 pods of which 50 changed costs the UI 50
   * rows. A pod stored as it is held already (the watch reuses the unchanged) is unchanged.
   */
  replaceAll(pods: IncomingPod[]): void {
    if (this.entries.size === 0) {
      for (const pod of pods) {
        const entry = this.entryFor(pod);
        this.entries.set(entry.row.uid, entry);
      }
      this.deltas.push('reset');
    } else {
      // No map of the new set: a catching-up node relists 30,000 pods every few seconds.
      const listed = new Set<string>();
      for (const pod of pods) {
        const uid = uidOfIncoming(pod);
        listed.add(uid);
        const held = this.entries.get(uid);
        if (held && sameStored(held.pod, pod)) {
          // Rows derived again for a new mask have no matrix pod: the link reopened with that mask brings it.
          if (held.matrix === undefined && pod.row && pod.matrix) held.matrix = pod.matrix;
          continue;
        }
        const entry = this.entryFor(pod);
        this.entries.set(uid, entry);
        this.deltas.push({ uid, kind: 'upsert', row: entry.row });
      }
      for (const uid of this.entries.keys()) {
        if (listed.has(uid)) continue;
        this.entries.delete(uid);
        this.deltas.push({ uid, kind: 'remove' });
      }
    }
    this.line('RELIST', { namespace: '', name: '', uid: '' }, `${pods.length} pods listed`);
  }

  upsert(type: 'ADDED' | 'MODIFIED', pod: IncomingPod): void {
    const entry = this.entryFor(pod);
    const uid = entry.row.uid;
    const before = this.entries.get(uid);
    this.entries.set(uid, entry);
    this.deltas.push({ uid, kind: 'upsert', row: entry.row });
    this.line(type, entry.row, describePodChange(before?.row, entry.row, this.hidden));
  }

  /**
   * The same pods, held differently (a node switching to rows only or back): each takes the place of the
   * entry of its version (the very row shown), so nothing is sent and what the windows show stays as it is.
   */
  hold(pods: readonly IncomingPod[]): void {
    for (const pod of pods) {
      const entry = pod.row && this.entries.get(pod.row.uid);
      if (entry && entry.row === pod.row) entry.pod = pod;
    }
  }

  remove(pod: IncomingPod): void {
    const uid = uidOfIncoming(pod);
    const before = this.entries.get(uid);
    if (!before) return;
    this.entries.delete(uid);
    this.deltas.push({ uid, kind: 'remove' });
    this.line('DELETED', before.row, 'deleted');
  }

  /** A field mask changed: every row is derived again and sent as a reset. */
  setMask(mask: FieldMask | null): void {
    this.mask = mask;
    this.hidden = new Set(unselectedFields(ROW_FIELD_SOURCES, mask?.paths ?? []));
    this.rebuild();
  }

  /** The mask every pod is shown and exported through; null for whole pods. */
  get fieldMask(): FieldMask | null {
    return this.mask;
  }

  /** The row values the mask leaves out: no change in them is ever reported. */
  get hiddenFields(): ReadonlySet<RowField> {
    return this.hidden;
  }

  clear(): void {
    this.entries.clear();
    this.deltas.push('reset');
  }

  /** Batches sent so far: moves whenever the set shown changes (once its frame is out). */
  get batches(): number {
    return this.seq;
  }

  /** The rows as of now; delivers pending changes first so the seq returned covers them. */
  snapshot(): PodRowsSnapshot {
    this.deltas.flush();
    return { seq: this.seq, rows: [...this.entries.values()].map((e) => e.row) };
  }

  close(): void {
    this.deltas.close();
    this.feed.close();
  }

  /** The pod as shown: masked like its row. */
  shown(pod: StoredPod): PodTree {
    const { pod: tree } = decodeStored(pod);
    return this.mask ? applyFieldMask(tree, this.mask) : tree;
  }

  /** A pod with a row (and a matrix pod) has it under this set's mask already (taken by a link opened with that mask). */
  private entryFor(pod: IncomingPod): PodEntry {
    const row = isNotHeld(pod) ? pod.row : (pod.row ?? rowOfPod(decodeStored(pod).pod, this.mask));
    return { pod, row, ...(pod.row && pod.matrix ? { matrix: pod.matrix } : {}) };
  }

  /**
   * Every row derived again (a new mask, or none), sent as a reset; the matrix reads the pods again too. Rows
   * of pods not held cannot be: they go, and the node's link, opened again with the new mask, lists them again.
   */
  private rebuild(): void {
    for (const [uid, entry] of this.entries) {
      if (isNotHeld(entry.pod)) this.entries.delete(uid);
      else this.entries.set(uid, { pod: entry.pod, row: rowOfPod(decodeStored(entry.pod).pod, this.mask) });
    }
    this.deltas.push('reset');
  }

  /** One podDeltas batch for a frame's changes: the last change per pod wins. */
  private send(changes: Change[]): void {
    const reset = changes.includes('reset');
    const last = new Map<string, Exclude<Change, 'reset'>>();
    for (const change of changes) if (change !== 'reset') last.set(change.uid, change);
    const latest = [...last.values()];
    this.seq += 1;
    // After a reset the current entries already hold every later change of the frame.
    const upserts = reset ? [...this.entries.values()].map((e) => e.row) : latest.flatMap((c) => (c.kind === 'upsert' ? [c.row] : []));
    const removals = reset ? [] : latest.flatMap((c) => (c.kind === 'remove' ? [c.uid] : []));
    // Validated here, once, where the batch is made: hosts pass it on to each window watching the node as
    // it is (validateProgress of pods.watch).
    const parsed = PodDeltasSchema.safeParse({ nodeId: this.nodeId, seq: this.seq, reset, upserts, removals });
    if (!parsed.success) {
      // A bug of the core's must not reach the UI as a malformed batch; the window's next seq shows the gap.
      console.error(`nodescope: dropped a pod batch: ${parsed.error.message}`);
      return;
    }
    const payload: PodDeltas = parsed.data;
    this.emit({ name: 'podDeltas', payload });
  }

  /** A frame's feed lines, validated here as its pod batches are (they go to the node's watchers as they are). */
  private sendFeed(lines: FeedLine[]): void {
    const parsed = WatchEventsSchema.safeParse({ nodeId: this.nodeId, lines });
    if (!parsed.success) {
      console.error(`nodescope: dropped feed lines: ${parsed.error.message}`);
      return;
    }
    this.emit({ name: 'watchEvents', payload: parsed.data });
  }

  private line(type: FeedLine['type'], pod: Pick<PodRow, 'namespace' | 'name' | 'uid'>, change: string): void {
    this.feed.push({ time: Date.now(), nodeId: this.nodeId, type, namespace: pod.namespace, name: pod.name, uid: pod.uid, change });
  }
}

function uidOfIncoming(pod: IncomingPod): string {
  return isNotHeld(pod) ? pod.row.uid : (pod.row?.uid ?? uidOf(decodeStored(pod).pod));
}

/** The pod's uid, undefined when it has none: from its row when it has one, else from its tree. */
export function incomingUid(pod: IncomingPod): string | undefined {
  return isNotHeld(pod) ? pod.row.uid : pod.row ? pod.row.uid : uidIn(decodeStored(pod).pod);
}

function uidIn(pod: PodTree): string | undefined {
  const meta = pod.metadata;
  const uid = meta && typeof meta === 'object' && !Array.isArray(meta) ? meta.uid : undefined;
  return typeof uid === 'string' && uid !== '' ? uid : undefined;
}

function uidOf(pod: PodTree): string {
  const uid = uidIn(pod);
  if (uid === undefined) throw new Error('A pod without metadata.uid cannot be tracked; the kubelet sent an incomplete pod.');
  return uid;
}
