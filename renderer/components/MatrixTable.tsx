import { useState } from 'react';
import type { WorkloadMatrixView } from '../../app/contract/fleet';
import { phaseText } from '../../app/fleet/matrix-export';

type Row = WorkloadMatrixView['rows'][number];

const ROWS_AT_FIRST = 300;

/** A cell picked for a pod-against-pod comparison: its first pod, on the source of that column. */
export interface CellPick {
  /** The column: the source's index in the matrix's sources. */
  source: number;
  namespace: string;
  podName: string;
}

/** The sources a row's drift sets apart: for each drift, those whose value is not the most common one. */
function driftedSources(row: Row): Map<string, string[]> {
  const apart = new Map<string, string[]>();
  for (const d of row.drift) {
    const tally = new Map<string, number>();
    for (const v of Object.values(d.values)) tally.set(v, (tally.get(v) ?? 0) + 1);
    // 'missing' always marks the sources without it; otherwise the minority differs from the rest.
    const norm = d.kind === 'missing' ? 'present' : [...tally.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
    for (const [source, v] of Object.entries(d.values)) {
      if (v === norm) continue;
      const what = d.container ? `${d.kind} of ${d.container}: ${v}` : d.kind;
      apart.set(source, [...(apart.get(source) ?? []), what]);
    }
  }
  return apart;
}

/**
 * Rows are workloads, columns the sources; a cell is ready/pods, phase and restarts. A row with drift is
 * marked and its differing cells say how they differ; an unknown column (source not live) is blank, never 0.
 */
export function MatrixTable({ matrix, onComparePair }: { matrix: WorkloadMatrixView; onComparePair: (a: CellPick, b: CellPick) => void }) {
  const [query, setQuery] = useState('');
  /** The first of two cells of a row picked to compare their pods. */
  const [first, setFirst] = useState<{ key: string; pick: CellPick } | null>(null);
  const pickCell = (row: Row, pick: CellPick) => {
    if (first && first.key === row.key && first.pick.source !== pick.source) {
      setFirst(null);
      onComparePair(first.pick, pick);
    } else setFirst(first?.key === row.key && first.pick.source === pick.source ? null : { key: row.key, pick });
  };
  const [driftOnly, setDriftOnly] = useState(false);
  const [all, setAll] = useState(false);
  const needle = query.trim().toLowerCase();
  const matching = matrix.rows.filter((r) => (!driftOnly || r.drift.length > 0) && (!needle || r.key.toLowerCase().includes(needle)));
  // Nodes that run different things make thousands of rows: the first few hundred are drawn until asked.
  const shown = all ? matching : matching.slice(0, ROWS_AT_FIRST);
  return (
    <>
      <div className="matrix-bar">
        <span className="muted small" role="status">
          {matrix.rows.length} workloads over {matrix.sources.length} sources; {matrix.drifted === 0 ? 'no drift' : `${matrix.drifted} with drift`}
        </span>
        <input type="search" className="search small" placeholder="Filter workloads" aria-label="Filter workloads" value={query} onChange={(e) => setQuery(e.target.value)} />
        <label className="check small">
          <input type="checkbox" checked={driftOnly} onChange={(e) => setDriftOnly(e.target.checked)} /> Only drift
        </label>
        <span className="muted small">{first ? 'Now pick another cell of that row to compare their pods' : 'Pick two cells of a row to compare their pods'}</span>
      </div>
      <div className="matrix-scroll">
        <table className="matrix" aria-label="Workloads by source">
          <thead>
            <tr>
              <th scope="col">Workload</th>
              {matrix.sources.map((s) => (
                <th key={s.id} scope="col" title={s.error ?? s.id} className={s.error ? 'unknown' : undefined}>
                  {s.id}
                  {s.error && <span className="tag tag-offline">unknown</span>}
                </th>
              ))}
              <th scope="col">Drift</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((row) => {
              const apart = driftedSources(row);
              return (
                <tr key={row.key} className={row.drift.length ? 'drift' : undefined} data-workload={row.key}>
                  <th scope="row" title={row.key}>
                    <span className="muted">{row.workload.namespace}/</span>
                    {row.workload.name} <span className="tag">{row.workload.kind}</span>
                  </th>
                  {row.cells.map((cell, i) => {
                    const source = matrix.sources[i]!;
                    const differs = apart.get(source.id);
                    const picked = first?.key === row.key && first.pick.source === i;
                    return (
                      <td
                        key={source.id}
                        className={[differs && 'cell-drift', picked && 'cell-picked'].filter(Boolean).join(' ') || undefined}
                        title={differs?.join('\n') ?? cell?.podNames.join('\n')}
                        data-source={source.id}
                      >
                        {source.error ? (
                          <span className="muted">?</span>
                        ) : cell ? (
                          <button
                            type="button"
                            className="cell-button"
                            aria-pressed={picked}
                            aria-label={`${row.workload.name} on ${source.id}: compare ${cell.podNames[0]}`}
                            onClick={() => pickCell(row, { source: i, namespace: row.workload.namespace, podName: cell.podNames[0]! })}
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
                  })}
                  <td className="drift-kinds">{[...new Set(row.drift.map((d) => (d.container ? `${d.kind} (${d.container})` : d.kind)))].join(', ')}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {shown.length < matching.length && (
          <p className="matrix-more">
            {shown.length} of {matching.length} rows shown.{' '}
            <button type="button" className="link-button" onClick={() => setAll(true)}>
              Show all
            </button>
          </p>
        )}
      </div>
    </>
  );
}
