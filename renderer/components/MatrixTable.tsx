import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, useState, type ReactNode, type RefObject } from 'react';
import type { WorkloadMatrixView } from '../../app/contract/fleet';
import { phaseText } from '../../app/fleet/matrix-export';
import { driftedSources, visibleMatrix, type MatrixRowView } from './matrix-view';

const ROWS_AT_FIRST = 300;
/** Past this many sources as rows, only the rows on screen are drawn: a thousand nodes times every workload is too many cells to lay out on each rebuild. */
const VIRTUAL_FROM = 40;
/** A source row's height before it is measured (a cell with drift text is taller). */
const SOURCE_ROW_PX = 30;

/** A cell picked for a pod-against-pod comparison: its first pod, on the source of that column. */
export interface CellPick {
  /** The column: the source's index in the matrix's sources. */
  source: number;
  namespace: string;
  podName: string;
}

interface CellProps {
  matrix: WorkloadMatrixView;
  row: MatrixRowView;
  sourceIndex: number;
  apart: Map<string, string[]>;
  picked: boolean;
  onPick: (pick: CellPick) => void;
}

/** One workload on one source: ready/pods, phase, restarts, and how it drifts from the others. */
function MatrixCell({ matrix, row, sourceIndex, apart, picked, onPick }: CellProps) {
  const source = matrix.sources[sourceIndex]!;
  const cell = row.cells[sourceIndex];
  const differs = apart.get(source.id);
  return (
    <td
      className={[differs && 'cell-drift', picked && 'cell-picked'].filter(Boolean).join(' ') || undefined}
      title={differs?.join('\n') ?? cell?.podNames.join('\n')}
      data-source={source.id}
      data-workload={row.key}
    >
      {source.error ? (
        <span className="muted">?</span>
      ) : cell ? (
        <button
          type="button"
          className="cell-button"
          aria-pressed={picked}
          aria-label={`${row.workload.name} on ${source.id}: compare ${cell.podNames[0]}`}
          onClick={() => onPick({ source: sourceIndex, namespace: row.workload.namespace, podName: cell.podNames[0]! })}
        >
          <span className={cell.readyPods < cell.pods ? 'tone-text-wait' : undefined}>
            {cell.readyPods}/{cell.pods}
          </span>{' '}
          <span className="muted">{phaseText(cell)}</span>
          {cell.restarts > 0 && <span className="tone-text-wait"> ↻{cell.restarts}</span>}
          {differs && <span className="drift-value">{differs.join('; ')}</span>}
        </button>
      ) : (
        <span className={differs ? 'tone-text-bad' : 'muted'}>{differs ? 'missing' : '—'}</span>
      )}
    </td>
  );
}

function WorkloadHeader({ row, scope }: { row: MatrixRowView; scope: 'col' | 'row' }) {
  return (
    <th scope={scope} title={row.key} className={scope === 'col' && row.drift.length ? 'drift' : undefined}>
      <span className="muted">{row.workload.namespace}/</span>
      {row.workload.name} <span className="tag">{row.workload.kind}</span>
    </th>
  );
}

function SourceHeader({ source, scope }: { source: WorkloadMatrixView['sources'][number]; scope: 'col' | 'row' }) {
  return (
    <th scope={scope} title={source.error ?? source.id} className={source.error ? 'unknown' : undefined}>
      {source.id}
      {source.error && <span className="tag tag-offline">unknown</span>}
    </th>
  );
}

/** Where a drawn source row sits for the virtualizer, which measures it (a row with drift text is taller). */
interface RowPlace {
  index: number;
  measure: (el: Element | null) => void;
}

/**
 * The transposed body, a row per source. Many sources: only those on screen are in the table, between two
 * spacer rows that keep the scroll height (a <table>'s rows cannot be positioned one by one).
 */
function SourceRows({ sources, scrollRef, row }: { sources: number[]; scrollRef: RefObject<HTMLDivElement | null>; row: (i: number, place?: RowPlace) => ReactNode }) {
  const virtual = sources.length > VIRTUAL_FROM;
  const virtualizer = useVirtualizer({ count: virtual ? sources.length : 0, getScrollElement: () => scrollRef.current, estimateSize: () => SOURCE_ROW_PX, overscan: 8 });
  if (!virtual) return <tbody>{sources.map((i) => row(i))}</tbody>;
  const items = virtualizer.getVirtualItems();
  const top = items[0]?.start ?? 0;
  const bottom = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  return (
    <tbody>
      {top > 0 && <tr aria-hidden="true" className="matrix-spacer" style={{ height: top }} />}
      {items.map((item) => row(sources[item.index]!, { index: item.index, measure: virtualizer.measureElement }))}
      {bottom > 0 && <tr aria-hidden="true" className="matrix-spacer" style={{ height: bottom }} />}
    </tbody>
  );
}

/**
 * Rows are workloads, columns the sources (or, transposed, a row per source: a hundred nodes read down
 * the page); a cell is ready/pods, phase and restarts. A row with drift is marked and its differing cells
 * say how they differ; an unknown column (source not live) is blank, never 0. "Only sources that differ"
 * keeps the sources a shown workload's drift sets apart.
 */
export function MatrixTable({ matrix, onComparePair }: { matrix: WorkloadMatrixView; onComparePair: (a: CellPick, b: CellPick) => void }) {
  const [query, setQuery] = useState('');
  /** The first of two cells of a row picked to compare their pods. */
  const [first, setFirst] = useState<{ key: string; pick: CellPick } | null>(null);
  const pickCell = (row: MatrixRowView, pick: CellPick) => {
    if (first && first.key === row.key && first.pick.source !== pick.source) {
      setFirst(null);
      onComparePair(first.pick, pick);
    } else setFirst(first?.key === row.key && first.pick.source === pick.source ? null : { key: row.key, pick });
  };
  const [driftOnly, setDriftOnly] = useState(false);
  const [differOnly, setDifferOnly] = useState(false);
  const [transposed, setTransposed] = useState(matrix.sources.length > 20);
  const [all, setAll] = useState(false);
  const scrollRef = useRef<HTMLDivElement>(null);
  const { rows: matching, sources } = visibleMatrix(matrix, { query, driftOnly, differOnly });
  // Nodes that run different things make thousands of rows: the first few hundred are drawn until asked.
  const shown = all ? matching : matching.slice(0, ROWS_AT_FIRST);
  const aparts = new Map(shown.map((row) => [row.key, driftedSources(row)]));
  const cell = (row: MatrixRowView, i: number) => (
    <MatrixCell
      key={`${row.key}@${i}`}
      matrix={matrix}
      row={row}
      sourceIndex={i}
      apart={aparts.get(row.key)!}
      picked={first?.key === row.key && first.pick.source === i}
      onPick={(pick) => pickCell(row, pick)}
    />
  );
  return (
    <>
      <div className="matrix-bar">
        <span className="muted small" role="status">
          {matrix.rows.length} workloads over {matrix.sources.length} sources; {matrix.drifted === 0 ? 'no drift' : `${matrix.drifted} with drift`}
          {sources.length < matrix.sources.length && `; ${sources.length} sources shown`}
        </span>
        <input type="search" className="search small" placeholder="Filter workloads" aria-label="Filter workloads" value={query} onChange={(e) => setQuery(e.target.value)} />
        <label className="check small">
          <input type="checkbox" checked={driftOnly} onChange={(e) => setDriftOnly(e.target.checked)} /> Only drift
        </label>
        <label className="check small">
          <input type="checkbox" checked={differOnly} onChange={(e) => setDifferOnly(e.target.checked)} /> Only sources that differ
        </label>
        <label className="check small">
          <input type="checkbox" checked={transposed} onChange={(e) => setTransposed(e.target.checked)} /> Sources as rows
        </label>
        <span className="muted small">{first ? 'Now pick another cell of that workload to compare their pods' : 'Pick two cells of a workload to compare their pods'}</span>
      </div>
      <div className="matrix-scroll" ref={scrollRef}>
        {transposed ? (
          <table className="matrix" aria-label="Sources by workload">
            <thead>
              <tr>
                <th scope="col">Source</th>
                {shown.map((row) => (
                  <WorkloadHeader key={row.key} row={row} scope="col" />
                ))}
              </tr>
            </thead>
            <SourceRows
              sources={sources}
              scrollRef={scrollRef}
              row={(i, place) => (
                <tr key={matrix.sources[i]!.id} data-source-row={matrix.sources[i]!.id} {...(place ? { 'data-index': place.index, ref: place.measure } : {})}>
                  <SourceHeader source={matrix.sources[i]!} scope="row" />
                  {shown.map((row) => cell(row, i))}
                </tr>
              )}
            />
          </table>
        ) : (
          <table className="matrix" aria-label="Workloads by source">
            <thead>
              <tr>
                <th scope="col">Workload</th>
                {sources.map((i) => (
                  <SourceHeader key={matrix.sources[i]!.id} source={matrix.sources[i]!} scope="col" />
                ))}
                <th scope="col">Drift</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((row) => (
                <tr key={row.key} className={row.drift.length ? 'drift' : undefined} data-workload={row.key}>
                  <WorkloadHeader row={row} scope="row" />
                  {sources.map((i) => cell(row, i))}
                  <td className="drift-kinds">{[...new Set(row.drift.map((d) => (d.container ? `${d.kind} (${d.container})` : d.kind)))].join(', ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {shown.length < matching.length && (
          <p className="matrix-more">
            {shown.length} of {matching.length} workloads shown.{' '}
            <button type="button" className="link-button" onClick={() => setAll(true)}>
              Show all
            </button>
          </p>
        )}
      </div>
    </>
  );
}
