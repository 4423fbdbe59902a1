import { useVirtualizer, type Range, type Virtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import type { RowField } from '../../app/pod/view/pod-field-sources';
import type { PodRow } from '../../app/contract/pods';
import type { OrderKey, SortOrder } from '../filter/sort-rows';
import { formatAge } from '../format/age';
import { NotSelected } from './NotSelected';
import { agoText, isRecent } from '../format/recent-change';
import type { LastChange } from '../state/pod-store';
import { describeProbes, formatBytes, formatCpu, formatProbes, summarizeProbes, type PodMetricsView } from '../../app/pod/view/pod-metrics';
import { useNow, useThrottled } from './use-model';
import { gridTemplate, shownColumns, type PodColumn } from './pod-columns';
import type { FieldValue, FieldValues } from '../columns/field-value';
import { columnOf } from '../columns/column-layout';

const ROW_HEIGHT = 26;
/**
 * Rows drawn beyond the screen: many ahead of the scroll, so they are there before they show, and a
 * few behind it, since with the scroller composited each row alive costs every scrolled frame's paint.
 */
const OVERSCAN_AHEAD = 12;
const OVERSCAN_BEHIND = 3;
const FLASH_MS = 1200;
/** Longer than any system's double-click interval: a double click's first click is at most this old. */
const DOUBLE_CLICK_MS = 2000;
/** The pod count is announced at most this often: pods come and go faster than anyone can listen. */
const COUNT_ANNOUNCE_MS = 5000;

/** The tone of kubectl's STATUS, for the status pill. */
export function statusTone(row: PodRow): string {
  if (row.deleting) return 'off';
  if (row.status === 'Running') return row.ready === row.total ? 'ok' : 'wait';
  if (row.status === 'Completed' || row.status === 'Succeeded') return 'off';
  if (row.status === 'Pending' || row.status.startsWith('Init:') || row.status === 'ContainerCreating' || row.status === 'PodInitializing') return 'busy';
  return 'bad';
}

export interface PodsTableProps {
  rows: readonly PodRow[];
  totalCount: number;
  order: SortOrder;
  onSort: (key: OrderKey) => void;
  selectedUid: string | null;
  onSelect: (uid: string) => void;
  onOpen: (uid: string) => void;
  changedAt: (uid: string) => number | undefined;
  /** What last changed in a pod (from the feed), marked on its row while recent. */
  lastChange: (uid: string) => LastChange | undefined;
  emptyText: string;
  /** Over several sources: why a row's source is not live ('offline', 'stale: reconnecting'), undefined when it is. */
  staleOf?: (uid: string) => string | undefined;
  /** Columns the node's field mask leaves out, and that mask: their cells say so instead of showing zeros. */
  notSelected: ReadonlySet<RowField>;
  mask: string;
  /** Over several sources, each with its own mask: the row's source's, in place of the two above. */
  maskOf?: (uid: string) => { notSelected: ReadonlySet<RowField>; mask: string };
  metricsOf: (row: PodRow) => PodMetricsView;
  /** No source in view gives CPU, memory or probes: a narrow table drops those columns first. */
  noMetrics: boolean;
  /** Rows from several sources: a narrow table keeps Node, which tells them apart (pod-columns.ts). */
  manySources: boolean;
  /** The columns the user chose, in order (renderer/columns); every built-in one when not given. */
  chosen?: readonly PodColumn[];
  /** A row's field columns' values by path; the same object while they are unchanged. */
  fieldsOf?: (uid: string) => FieldValues | undefined;
  /** Whether the node's mask left a field column's path out (its header says so). */
  fieldLeftOut?: (path: string) => boolean;
  /** The rows drawn now (on screen and just beyond), so their field values can be read. */
  onDrawnRows?: (uids: readonly string[]) => void;
}

/** A metric's cell: its value, or "n/a" with the reason on hover; never a zero for a value not received. */
function metricCell(key: 'cpu' | 'memory' | 'probes', m: PodMetricsView): ReactNode {
  const na = (reason: string, className: string) => (
    <div key={key} role="gridcell" className={`${className} muted`} title={reason}>
      n/a
    </div>
  );
  if (key !== 'probes') {
    const className = key === 'cpu' ? 'c-cpu' : 'c-mem';
    if (!('value' in m.usage)) return na(m.usage.absent, className);
    return (
      <div key={key} role="gridcell" className={className}>
        {key === 'cpu' ? formatCpu(m.usage.value.cpuCores) : formatBytes(m.usage.value.memoryBytes)}
      </div>
    );
  }
  const probes = 'value' in m.probes ? summarizeProbes(m.probes.value) : null;
  return 'value' in m.probes && probes ? (
    <div key={key} role="gridcell" className={`c-probes${probes.failed ? ' tone-text-bad' : probes.unknown ? ' tone-text-wait' : ''}`} title={describeProbes(m.probes.value).join('\n')}>
      {formatProbes(probes)}
    </div>
  ) : (
    na('absent' in m.probes ? m.probes.absent : '', 'c-probes')
  );
}

/**
 * A pod field's cell: its values, or a mark saying why there is none: the node's mask left the field
 * out, the pod has no such field, or its value is on its way. Never an empty cell for a value not read.
 */
function fieldCell(column: PodColumn, value: FieldValue, mask: string): ReactNode {
  const path = column.path!;
  if (value === 'masked') {
    return (
      <div key={column.key} role="gridcell" className="c-field">
        <NotSelected mask={mask} short />
      </div>
    );
  }
  if (value === 'loading' || value === null) {
    const why = value === null ? `This pod has no ${path}` : `Reading ${path}…`;
    return (
      <div key={column.key} role="gridcell" className="c-field muted" title={why} aria-label={why}>
        {value === null ? '<none>' : '…'}
      </div>
    );
  }
  const text = value.join(', ');
  return (
    <div key={column.key} role="gridcell" className="c-field" title={`${path}: ${text}`}>
      {text}
    </div>
  );
}

/** What one row's cells draw from; cells whose props are all unchanged are not drawn again. */
interface CellsProps {
  row: PodRow;
  stale: string | undefined;
  notSelected: ReadonlySet<RowField>;
  mask: string;
  last: LastChange | undefined;
  now: number;
  metricsOf: (row: PodRow) => PodMetricsView;
  /** The columns the table's width has room for, in order. */
  columns: readonly PodColumn[];
  /** The row's field columns' values by path (a new object when they change). */
  fields: FieldValues | undefined;
}

const PodRowCells = memo(function PodRowCells({ row, stale, notSelected, mask, last, now, metricsOf, columns, fields }: CellsProps) {
  // A cell the mask left out shows the mark, whatever the row holds there.
  const cell = (field: RowField, content: ReactNode) => (notSelected.has(field) ? <NotSelected mask={mask} short /> : content);
  const recent = last && isRecent(last.time, now) ? last : undefined;
  const cellOf = (c: PodColumn): ReactNode => {
    if (c.path) return fieldCell(c, fields?.[c.path] ?? 'loading', mask);
    switch (c.key) {
      case 'namespace':
        return <div key={c.key} role="gridcell" className="c-ns" title={row.namespace}>{cell('namespace', row.namespace)}</div>;
      case 'name':
        return (
          <div key={c.key} role="gridcell" className="c-name" title={recent ? `${row.name}\nchanged ${agoText(recent.time, now)}: ${recent.change}` : row.name}>
            {recent && (
              <span className="changed-mark" aria-label={`changed ${agoText(recent.time, now)}: ${recent.change}`}>
                Δ
              </span>
            )}
            {cell('name', row.name)}
          </div>
        );
      case 'status':
        return (
          <div key={c.key} role="gridcell" className="c-status">
            {cell('status', <span className={`pill tone-${statusTone(row)}`}>{row.deleting ? 'Terminating' : row.status || '—'}</span>)}
          </div>
        );
      case 'ready':
        return (
          <div key={c.key} role="gridcell" className={`c-ready${row.ready < row.total && row.phase === 'Running' ? ' tone-text-wait' : ''}`}>
            {cell('ready', `${row.ready}/${row.total}`)}
          </div>
        );
      case 'restarts':
        return <div key={c.key} role="gridcell" className={`c-num${row.restarts > 0 ? ' tone-text-wait' : ''}`}>{cell('restarts', row.restarts)}</div>;
      case 'age':
        return <div key={c.key} role="gridcell" className="c-age" title={row.createdAt ?? ''}>{cell('createdAt', formatAge(row.createdAt, now))}</div>;
      case 'cpu':
      case 'memory':
      case 'probes':
        return metricCell(c.key, metricsOf(row));
      case 'podIP':
        return <div key={c.key} role="gridcell" className="c-ip">{cell('podIP', row.podIP || '—')}</div>;
      case 'node':
        return (
          <div key={c.key} role="gridcell" className="c-node" title={stale ? `${row.node} (${stale}: not live)` : row.node}>
            {cell('node', row.node)}
            {stale && <span className="tag tag-offline">{stale}</span>}
          </div>
        );
      case 'ownerKind':
        return <div key={c.key} role="gridcell" className="c-owner" title={row.ownerName ? `${row.ownerKind}/${row.ownerName}` : ''}>{cell('owner', row.ownerKind || '—')}</div>;
      case 'isStatic':
        return <div key={c.key} role="gridcell" className="c-static">{cell('isStatic', row.isStatic ? <span className="tag">static</span> : '')}</div>;
      default:
        return null;
    }
  };
  return <>{columns.map(cellOf)}</>;
});

interface RowProps extends CellsProps {
  index: number;
  start: number;
  selected: boolean;
  flash: boolean;
  /** A click on the row: `detail` counts the clicks in a row, `at` is when (the event's time stamp). */
  onClickRow: (uid: string, detail: number, at: number) => void;
  onDoubleClickRow: (uid: string, at: number) => void;
}

/**
 * One row. A batch redraws only the rows it changed; rows it merely moved (a pod added above them)
 * get a new position and index, and keep their cells as drawn.
 */
const PodRowView = memo(function PodRowView({ index, start, selected, flash, onClickRow, onDoubleClickRow, ...cells }: RowProps) {
  const { row, stale } = cells;
  return (
    <div
      id={`pod-row-${row.uid}`}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      data-uid={row.uid}
      className={`pod-row${selected ? ' selected' : ''}${flash ? ' flash' : ''}${row.deleting ? ' deleting' : ''}${stale ? ' stale' : ''}`}
      style={{ transform: `translateY(${start}px)` }}
      onClick={(e) => onClickRow(row.uid, e.detail, e.timeStamp)}
      onDoubleClick={(e) => {
        window.getSelection()?.removeAllRanges();
        onDoubleClickRow(row.uid, e.timeStamp);
      }}
    >
      <PodRowCells {...cells} />
    </div>
  );
});

/** An element's width in px, followed as it changes; 0 before it is laid out. */
function useWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  // Measured before the first paint, so a narrow table never shows columns it has no room for.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/** The pods grid: virtualized (30,000 rows scroll smoothly), sortable, keyboard driven, flashing changed rows. */
export function PodsTable(props: PodsTableProps) {
  const tableRef = useRef<HTMLDivElement>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const width = useWidth(tableRef);
  const fitting = shownColumns(width, { manySources: props.manySources, noMetrics: props.noMetrics, sortKey: props.order.key, ...(props.chosen ? { chosen: props.chosen } : {}) });
  const shownKeys = fitting.map((c) => c.key).join(' ');
  // One list per choice of columns, so rows are drawn again only when the columns change.
  const columns = useMemo(() => fitting, [shownKeys]);
  const shown = useMemo(() => new Set<string>(columns.map((c) => c.key)), [columns]);
  const now = useNow(5000);
  const countText = props.rows.length === props.totalCount ? `${props.totalCount} pods` : `${props.rows.length} of ${props.totalCount} pods`;
  const spokenCount = useThrottled(countText, COUNT_ANNOUNCE_MS);
  // Rows all have one height and are never measured, so the virtualizer's items are keyed by index
  // (its default): a key function would be new on every render and make it lay out every row again.
  // React keys rows by UID below.
  const directionRef = useRef<Virtualizer<HTMLDivElement, Element>['scrollDirection']>(null);
  const virtualizer = useVirtualizer({
    count: props.rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    rangeExtractor: useCallback((range: Range) => {
      const backward = directionRef.current === 'backward';
      const start = Math.max(0, range.startIndex - (backward ? OVERSCAN_AHEAD : OVERSCAN_BEHIND));
      const end = Math.min(range.count - 1, range.endIndex + (backward ? OVERSCAN_BEHIND : OVERSCAN_AHEAD));
      return Array.from({ length: end - start + 1 }, (_, i) => start + i);
    }, []),
  });
  directionRef.current = virtualizer.scrollDirection;
  const drawnUids = virtualizer
    .getVirtualItems()
    .map((item) => props.rows[item.index]?.uid ?? '')
    .join(' ');
  useEffect(() => {
    latest.current.onDrawnRows?.(drawnUids ? drawnUids.split(' ') : []);
  }, [drawnUids]);
  // The handlers rows get stay the same from one render to the next, so unchanged rows are not drawn again.
  const latest = useRef(props);
  latest.current = props;
  // A double click opens the pod its first click was on: rows shift as pods come and go above, and the
  // second click can land on the neighbour. So the second click selects nothing, and the first is kept
  // for the double click that follows it (a first click elsewhere, on a dialog's backdrop, leaves none).
  const firstClick = useRef<{ uid: string; at: number } | null>(null);
  const onClickRow = useCallback((uid: string, detail: number, at: number) => {
    if (detail > 1) return;
    firstClick.current = { uid, at };
    latest.current.onSelect(uid);
  }, []);
  const onDoubleClickRow = useCallback((uid: string, at: number) => {
    const first = firstClick.current;
    firstClick.current = null;
    latest.current.onOpen(first && at - first.at < DOUBLE_CLICK_MS ? first.uid : uid);
  }, []);
  const selectedIndex = () => (props.selectedUid ? props.rows.findIndex((r) => r.uid === props.selectedUid) : -1);

  // Bring a newly selected row into view (keyboard, events feed); a re-sort alone does not scroll.
  useEffect(() => {
    const index = selectedIndex();
    if (index >= 0) virtualizer.scrollToIndex(index, { align: 'auto' });
  }, [props.selectedUid, virtualizer]);

  function onKeyDown(e: KeyboardEvent) {
    // Keys on the sort buttons are theirs.
    if (e.target !== e.currentTarget) return;
    const last = props.rows.length - 1;
    if (last < 0) return;
    const selected = selectedIndex();
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 300) / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = {
      ArrowDown: selected + 1,
      ArrowUp: selected - 1,
      PageDown: selected + page,
      PageUp: selected - page,
      Home: 0,
      End: last,
    };
    const target = moves[e.key];
    if (target !== undefined) {
      e.preventDefault();
      const row = props.rows[Math.min(last, Math.max(0, selected < 0 && e.key === 'ArrowDown' ? 0 : target))];
      if (row) props.onSelect(row.uid);
    } else if (e.key === 'Enter' && props.selectedUid) {
      e.preventDefault();
      props.onOpen(props.selectedUid);
    }
  }

  return (
    <div ref={tableRef} className="pods-table" style={{ '--pod-columns': gridTemplate(columns) } as CSSProperties}>
      {/* The grid itself takes focus and names the selected row, as ARIA grids do; cells stay out of the tab order. */}
      <div
        className="pods-grid"
        role="grid"
        aria-label="Pods"
        aria-rowcount={props.rows.length + 1}
        aria-colcount={columns.length}
        tabIndex={0}
        aria-activedescendant={props.selectedUid ? `pod-row-${props.selectedUid}` : undefined}
        onKeyDown={onKeyDown}
      >
        <div className="pods-head" role="row" aria-rowindex={1}>
          {columns.map((c) => {
            const active = props.order.key === c.key;
            return (
              <div key={c.key} role="columnheader" className={c.className} title={c.path} aria-sort={active ? (props.order.descending ? 'descending' : 'ascending') : 'none'}>
                <button type="button" className="sort-button" onClick={() => props.onSort(c.key)} aria-label={`Sort by ${c.path ?? c.label}`}>
                  <span className="sort-label">{c.label}</span>
                  {c.field && props.notSelected.has(c.field) && <NotSelected mask={props.mask} short />}
                  {c.path && props.fieldLeftOut?.(c.path) && <NotSelected mask={props.mask} short />}
                  <span className="sort-mark" aria-hidden="true">
                    {active ? (props.order.descending ? '▾' : '▴') : ''}
                  </span>
                </button>
              </div>
            );
          })}
        </div>
        <div ref={scrollRef} className="pods-scroll">
          {props.rows.length === 0 ? (
            <div className="empty">{props.emptyText}</div>
          ) : (
            <div className="pods-canvas" style={{ height: virtualizer.getTotalSize() }}>
              {virtualizer.getVirtualItems().map((item) => {
                const row = props.rows[item.index]!;
                const changed = props.changedAt(row.uid);
                const flash = changed !== undefined && Date.now() - changed < FLASH_MS;
                const masked = props.maskOf?.(row.uid) ?? props;
                return (
                  <PodRowView
                    // A new key per change restarts the flash animation even if the row was flashing already.
                    key={flash ? `${row.uid}@${changed}` : row.uid}
                    row={row}
                    index={item.index}
                    start={item.start}
                    selected={row.uid === props.selectedUid}
                    flash={flash}
                    stale={props.staleOf?.(row.uid)}
                    notSelected={masked.notSelected}
                    mask={masked.mask}
                    last={props.lastChange(row.uid)}
                    now={now}
                    metricsOf={props.metricsOf}
                    columns={columns}
                    fields={props.fieldsOf?.(row.uid)}
                    onClickRow={onClickRow}
                    onDoubleClickRow={onDoubleClickRow}
                  />
                );
              })}
            </div>
          )}
        </div>
      </div>
      {/* The count on screen follows every change; screen readers hear it at most every few seconds. */}
      <div className="pods-foot" aria-hidden="true">
        {countText}
        {/* A table too narrow for the sorted column still says what its rows are sorted by. */}
        {!shown.has(props.order.key) && ` · sorted by ${columnOf(props.order.key)?.path ?? columnOf(props.order.key)?.label ?? props.order.key} ${props.order.descending ? '▾' : '▴'}`}
      </div>
      <div className="sr-only" role="status">
        {spokenCount}
      </div>
    </div>
  );
}
