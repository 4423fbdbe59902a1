import type { PodRow } from '../../app/contract/pods';
import { compileFilter, narrows, type ParsedFilter, type PodMatcher } from '../../app/pod/view/filter-language';
import { isFieldKey } from '../columns/field-key';
import { sortByKey } from './sort-by-key';
import { entryComparator, isMetricKey, sortEntry, tieComparator, tieOf, type FieldKeyOf, type MetricsOf, type SortEntry, type SortOrder } from './sort-rows';

const compiledOf = (filter: ParsedFilter | null): PodMatcher | null => (filter && filter.terms.length > 0 ? compileFilter(filter) : null);

/** Past this share of the rows changed at once, sorting afresh is cheaper than placing each change. */
const REBUILD_SHARE = 0.25;

/**
 * A node's rows, filtered and sorted, kept up to date change by change: a batch costs in proportion
 * to its changes (a binary search and an array splice each), not to the node's size, so 200 changes a
 * second on 30,000 pods never re-sort or re-filter the whole set. Every row is kept in order; the
 * filtered rows follow it, so a filter keystroke is one pass over rows already sorted, and only a new
 * sort order sorts everything: every row is also kept in tie order (namespace, name, UID), from which
 * a stable sort by the new key alone gives the full order without comparing tie-breakers. New metrics (every few seconds on a REST node) sort again only when
 * the order is by a metric, and filter again only when the filter reads one.
 */
export class RowIndex {
  /** Every row, by UID (its entry is found in `byTie` by its tie-breaker, which holds its UID). */
  private readonly byUid = new Map<string, PodRow>();
  /** Every row, in order. */
  private all: SortEntry[] = [];
  /** Every row, in tie order (the same entries as `all`). */
  private byTie: SortEntry[] = [];
  /** The rows that match the filter, in order: `all` itself when there is no filter. */
  private shown: SortEntry[] = [];
  /** shown's rows, which the table reads (the same array object from one change to the next). */
  private list: PodRow[] = [];
  private compare: (a: SortEntry, b: SortEntry) => number;
  /** The filter compiled, null when it has no terms (every row matches). */
  private match: PodMatcher | null;

  constructor(
    private order: SortOrder,
    private filter: ParsedFilter | null,
    rows: Iterable<PodRow> = [],
    private metricsOf?: MetricsOf,
    /** The values of the field column sorted by, when the order is by one. */
    private fieldKeyOf?: FieldKeyOf,
  ) {
    this.compare = entryComparator(order);
    this.match = compiledOf(filter);
    this.reset(rows);
  }

  /** The matching rows, in order. */
  rows(): readonly PodRow[] {
    return this.list;
  }

  get size(): number {
    return this.byUid.size;
  }

  /** The rows are exactly these now. */
  reset(rows: Iterable<PodRow>): void {
    this.byUid.clear();
    for (const row of rows) this.byUid.set(row.uid, row);
    this.rebuild();
  }

  /** A batch of changes: rows added or changed, and UIDs removed. */
  apply(upserts: readonly PodRow[], removals: readonly string[]): void {
    if (upserts.length + removals.length > Math.max(64, this.byUid.size * REBUILD_SHARE)) {
      for (const uid of removals) this.byUid.delete(uid);
      for (const row of upserts) this.byUid.set(row.uid, row);
      this.rebuild();
      return;
    }
    for (const uid of removals) this.remove(uid);
    for (const row of upserts) {
      this.remove(row.uid);
      const entry = this.entryOf(row);
      this.byUid.set(row.uid, row);
      this.byTie.splice(this.lowerBound(this.byTie, entry, tieComparator), 0, entry);
      const at = this.lowerBound(this.all, entry);
      this.all.splice(at, 0, entry);
      if (this.shown === this.all) this.list.splice(at, 0, row);
      else if (this.matches(entry)) this.insertShown(entry);
    }
  }

  /** Sorts everything again, only when the order differs. */
  setOrder(order: SortOrder): void {
    if (order.key === this.order.key && order.descending === this.order.descending) return;
    const sameKey = order.key === this.order.key;
    this.order = order;
    this.compare = entryComparator(order);
    // The other direction of the same column: the keys hold, only the order is new.
    if (sameKey) this.sortAll();
    else this.rekey();
  }

  /** Filters the sorted rows again, only when the filter is another one; a narrower one (typing on) filters only the rows shown. */
  setFilter(filter: ParsedFilter | null): void {
    if (filter === this.filter) return;
    const previous = this.filter;
    this.filter = filter;
    this.match = compiledOf(filter);
    if (filter && previous && narrows(filter, previous)) {
      this.shown = this.shown.filter((e) => this.matches(e));
      this.list = this.shown.map((e) => e.row);
    } else this.refilter();
  }

  /** The metrics rows are sorted and filtered by changed (a new reading, or none). */
  setMetrics(metricsOf: MetricsOf | undefined): void {
    if (metricsOf === this.metricsOf) return;
    this.metricsOf = metricsOf;
    if (isMetricKey(this.order.key)) this.rekey();
    else if (this.filter?.terms.some((t) => t.kind === 'probe')) this.refilter();
  }

  /** The sorted field column's values changed (read afresh): sorts again when the order is by a field. */
  setFieldKeys(fieldKeyOf: FieldKeyOf | undefined): void {
    if (fieldKeyOf === this.fieldKeyOf) return;
    this.fieldKeyOf = fieldKeyOf;
    if (isFieldKey(this.order.key)) this.rekey();
  }

  private entryOf(row: PodRow, from?: SortEntry): SortEntry {
    return sortEntry(row, this.order, { metricsOf: this.metricsOf, fieldKeyOf: this.fieldKeyOf }, from);
  }

  /** Every row's entry afresh, sorted by tie and by key. */
  private rebuild(): void {
    this.byTie = [];
    for (const row of this.byUid.values()) this.byTie.push(this.entryOf(row));
    this.byTie.sort(tieComparator);
    this.sortAll();
  }

  /**
   * Every row's key under the current order, then sorted; the tie order stays. New entries: changing
   * a key in place can change its type, and V8 then reshapes every entry.
   */
  private rekey(): void {
    this.byTie = this.byTie.map((e) => this.entryOf(e.row, e));
    this.sortAll();
  }

  /** `all` from `byTie`: a stable sort by key keeps ties in tie order. */
  private sortAll(): void {
    this.all = sortByKey(this.byTie, this.order);
    this.refilter();
  }

  private matches(entry: SortEntry): boolean {
    return !this.match || this.match(entry.row, this.metricsOf, entry.text);
  }

  private refilter(): void {
    const { match, metricsOf, all } = this;
    if (!match) {
      this.shown = all;
      this.list = all.map((e) => e.row);
      return;
    }
    // One pass that fills both: the entries (for placing changes) and their rows (for the table).
    const shown: SortEntry[] = [];
    const list: PodRow[] = [];
    for (const e of all) {
      if (!match(e.row, metricsOf, e.text)) continue;
      shown.push(e);
      list.push(e.row);
    }
    this.shown = shown;
    this.list = list;
  }

  private insertShown(entry: SortEntry): void {
    const at = this.lowerBound(this.shown, entry);
    this.shown.splice(at, 0, entry);
    this.list.splice(at, 0, entry.row);
  }

  private remove(uid: string): void {
    const row = this.byUid.get(uid);
    if (!row) return;
    this.byUid.delete(uid);
    const inTie = this.lowerBound<Pick<SortEntry, 'tie'>>(this.byTie, { tie: tieOf(row) }, tieComparator);
    const entry = this.byTie[inTie]!;
    this.byTie.splice(inTie, 1);
    const inAll = this.lowerBound(this.all, entry);
    if (this.shown !== this.all) {
      const inShown = this.lowerBound(this.shown, entry);
      if (this.shown[inShown] === entry) {
        this.shown.splice(inShown, 1);
        this.list.splice(inShown, 1);
      }
    } else this.list.splice(inAll, 1);
    this.all.splice(inAll, 1);
  }

  /** The first position whose entry does not sort before `entry` (the order is total, so an entry held is found there). */
  private lowerBound<E = SortEntry>(entries: readonly SortEntry[], entry: E, compare: (a: SortEntry, b: E) => number = this.compare as (a: SortEntry, b: E) => number): number {
    let lo = 0;
    let hi = entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(entries[mid]!, entry) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
