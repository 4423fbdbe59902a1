import type { FeedLine, PodDeltas, PodRow, PodRowsSnapshot } from '../../app/contract/pods';
import type { ParsedFilter } from '../../app/pod/view/filter-language';
import { RowIndex } from '../filter/row-index';
import { SharedStrings } from './shared-strings';
import type { FieldKeyOf, MetricsOf, SortOrder } from '../filter/sort-rows';

/** A pod's last change as the feed told it: when, and what in one line. */
export interface LastChange {
  time: number;
  change: string;
}

interface NodePods {
  /** Seq of the last batch applied; -1 while waiting for a snapshot (the first, or after a gap). */
  seq: number;
  rows: Map<string, PodRow>;
  /** When each pod last changed (ms), for the row flash; initial loads do not flash. */
  changedAt: Map<string, number>;
  /** Each pod's last change (MODIFIED in the feed), for the "what changed" mark; kept across snapshots. */
  lastChange: Map<string, LastChange>;
  /** Batches that arrived while waiting for a snapshot, replayed on top of it. */
  early: PodDeltas[];
  list: PodRow[] | null;
  /** The rows as the table shows them (filtered, sorted), once asked for; kept up to date batch by batch. */
  index: RowIndex | null;
}

export type DeltaOutcome = 'applied' | 'duplicate' | 'early' | 'gap';

/** A row's key in the table over several sources: the same pod UID may be on two (a node and its snapshot). */
export const fleetRowKey = (nodeId: string, uid: string): string => `${nodeId}:${uid}`;

export const splitFleetKey = (key: string): { nodeId: string; uid: string } => {
  const at = key.indexOf(':');
  return { nodeId: key.slice(0, at), uid: key.slice(at + 1) };
};

/** A source of the table over several sources, and the label its rows' NODE column shows. */
export interface FleetSource {
  id: string;
  label: string;
}

/** The table over several sources, filtered and sorted, kept up to date batch by batch like a node's view. */
interface FleetRows {
  /** Which sources, with their labels: another set builds the index afresh. */
  key: string;
  labels: ReadonlyMap<string, string>;
  index: RowIndex;
}

/**
 * The renderer's pods, indexed by node and UID. Batches are ordered by seq: one already covered by
 * the snapshot is dropped, one that skips a seq reports a gap once (the caller fetches a new
 * snapshot); from then on batches are held and replayed on the snapshot, so a busy node costs one
 * refetch per gap, not one per batch, and nothing that arrives meanwhile is lost. While the
 * snapshot is slow to come (the request failed and waits to be retried) at most `maxHeldBatches`
 * are held: past that they are dropped and a gap reported again, since the next snapshot covers
 * them anyway.
 */
export class PodStore {
  private readonly nodes = new Map<string, NodePods>();
  private fleet: FleetRows | null = null;
  /** Rows received share one string per repeated value (shared-strings.ts). */
  private readonly strings = new SharedStrings();

  constructor(private readonly maxHeldBatches = 256) {}

  private node(nodeId: string): NodePods {
    let node = this.nodes.get(nodeId);
    if (!node) this.nodes.set(nodeId, (node = { seq: -1, rows: new Map(), changedAt: new Map(), lastChange: new Map(), early: [], list: null, index: null }));
    return node;
  }

  /** Returns 'gap' when the held batches do not follow on from the snapshot: fetch another. */
  applySnapshot(nodeId: string, snapshot: PodRowsSnapshot): 'applied' | 'gap' {
    const node = this.node(nodeId);
    const before = node.rows;
    node.rows = new Map(snapshot.rows.map((r) => [r.uid, this.strings.share(r)]));
    this.fleetReplaced(nodeId, before, node.rows);
    node.changedAt.clear();
    node.seq = snapshot.seq;
    node.list = null;
    node.index?.reset(node.rows.values());
    const early = node.early;
    node.early = [];
    let outcome: 'applied' | 'gap' = 'applied';
    for (const batch of early) {
      if ((node.seq < 0 || batch.seq > node.seq) && this.applyDeltas(batch, 0) === 'gap') outcome = 'gap';
    }
    return outcome;
  }

  applyDeltas(batch: PodDeltas, now: number): DeltaOutcome {
    const node = this.node(batch.nodeId);
    if (node.seq < 0 && !batch.reset) {
      node.early.push(batch);
      if (node.early.length <= this.maxHeldBatches) return 'early';
      node.early = [];
      return 'gap';
    }
    if (!batch.reset) {
      if (batch.seq <= node.seq) return 'duplicate';
      if (batch.seq !== node.seq + 1) {
        // The rows stay on screen as last known while the snapshot is fetched.
        node.seq = -1;
        node.early.push(batch);
        return 'gap';
      }
    }
    for (const row of batch.upserts) this.strings.share(row);
    if (batch.reset) {
      const before = node.rows;
      node.rows = new Map();
      node.changedAt.clear();
      node.index?.reset(batch.upserts);
      this.fleetReplaced(batch.nodeId, before, new Map(batch.upserts.map((r) => [r.uid, r])));
    } else {
      node.index?.apply(batch.upserts, batch.removals);
      this.fleetApply(batch.nodeId, batch.upserts, batch.removals);
    }
    for (const row of batch.upserts) {
      node.rows.set(row.uid, row);
      if (!batch.reset && now > 0) node.changedAt.set(row.uid, now);
    }
    for (const uid of batch.removals) {
      node.rows.delete(uid);
      node.changedAt.delete(uid);
      node.lastChange.delete(uid);
    }
    node.seq = batch.seq;
    node.list = null;
    return 'applied';
  }

  removeNode(nodeId: string): void {
    const node = this.nodes.get(nodeId);
    if (node) this.fleetApply(nodeId, [], [...node.rows.keys()]);
    this.nodes.delete(nodeId);
  }

  /** The node's rows as an array, rebuilt only after a change (the table filters and sorts it). */
  rows(nodeId: string): readonly PodRow[] {
    const node = this.nodes.get(nodeId);
    if (!node) return [];
    return (node.list ??= [...node.rows.values()]);
  }

  /**
   * The node's rows filtered and sorted for the table. The same filter object, order and metrics keep
   * the index as it is (batches update it); another filter filters again, another order sorts again.
   * `fieldKeyOf`: the values of the field column sorted by, when the order is by one.
   */
  view(nodeId: string, filter: ParsedFilter, order: SortOrder, metricsOf?: MetricsOf, fieldKeyOf?: FieldKeyOf): readonly PodRow[] {
    const node = this.nodes.get(nodeId);
    if (!node) return [];
    if (!node.index) node.index = new RowIndex(order, filter, node.rows.values(), metricsOf, fieldKeyOf);
    node.index.setMetrics(metricsOf);
    node.index.setFieldKeys(fieldKeyOf);
    node.index.setOrder(order);
    node.index.setFilter(filter);
    return node.index.rows();
  }

  /**
   * The rows of several sources in one table, filtered and sorted: each row keyed by fleetRowKey, its NODE
   * the source's label. Kept up to date batch by batch (a batch costs what its changes cost, whatever the
   * sources hold) while the same sources are asked for; dropFleetView when the table closes.
   */
  fleetView(sources: readonly FleetSource[], filter: ParsedFilter, order: SortOrder, metricsOf?: MetricsOf, fieldKeyOf?: FieldKeyOf): readonly PodRow[] {
    const key = JSON.stringify(sources.map((s) => [s.id, s.label]));
    if (this.fleet?.key !== key) {
      const labels = new Map(sources.map((s) => [s.id, s.label]));
      const rows = sources.flatMap((s) => [...(this.nodes.get(s.id)?.rows.values() ?? [])].map((r) => sourcedRow(s.id, s.label, r)));
      this.fleet = { key, labels, index: new RowIndex(order, filter, rows, metricsOf, fieldKeyOf) };
    }
    const { index } = this.fleet;
    index.setMetrics(metricsOf);
    index.setFieldKeys(fieldKeyOf);
    index.setOrder(order);
    index.setFilter(filter);
    return index.rows();
  }

  dropFleetView(): void {
    this.fleet = null;
  }

  /** A node's batch, into the table over several sources when it is one of them. */
  private fleetApply(nodeId: string, upserts: readonly PodRow[], removals: readonly string[]): void {
    const label = this.fleet?.labels.get(nodeId);
    if (label === undefined) return;
    this.fleet!.index.apply(
      upserts.map((r) => sourcedRow(nodeId, label, r)),
      removals.map((uid) => fleetRowKey(nodeId, uid)),
    );
  }

  /** A node's rows were replaced (a snapshot, a reset): what is gone goes, the rest is placed anew. */
  private fleetReplaced(nodeId: string, before: ReadonlyMap<string, PodRow>, after: ReadonlyMap<string, PodRow>): void {
    if (!this.fleet?.labels.has(nodeId)) return;
    this.fleetApply(nodeId, [...after.values()], [...before.keys()].filter((uid) => !after.has(uid)));
  }

  get(nodeId: string, uid: string): PodRow | undefined {
    return this.nodes.get(nodeId)?.rows.get(uid);
  }

  changedAt(nodeId: string, uid: string): number | undefined {
    return this.nodes.get(nodeId)?.changedAt.get(uid);
  }

  /** Notes what the feed says changed; only modifications of pods the store knows count. */
  noteChanges(lines: readonly FeedLine[]): void {
    for (const line of lines) {
      const node = this.nodes.get(line.nodeId);
      if (line.type === 'MODIFIED' && line.uid !== '' && node?.rows.has(line.uid)) node.lastChange.set(line.uid, { time: line.time, change: line.change });
    }
  }

  lastChange(nodeId: string, uid: string): LastChange | undefined {
    return this.nodes.get(nodeId)?.lastChange.get(uid);
  }

  count(nodeId: string): number {
    return this.nodes.get(nodeId)?.rows.size ?? 0;
  }
}

/** A node's row as the table over several sources shows it. */
function sourcedRow(nodeId: string, label: string, row: PodRow): PodRow {
  return { ...row, uid: fleetRowKey(nodeId, row.uid), node: label };
}
