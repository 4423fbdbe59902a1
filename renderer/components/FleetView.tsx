import { useEffect, useMemo, useRef, useState, type MutableRefObject } from 'react';
import type { WorkloadMatrixView } from '../../app/contract/fleet';
import type { NodeInfo } from '../../app/contract/nodes';
import type { PodRow } from '../../app/contract/pods';
import { ROW_FIELD_SOURCES, unselectedFields, type RowField } from '../../app/pod/view/pod-field-sources';
import { matrixToCsv, matrixToJson } from '../../app/fleet/matrix-export';
import { tableToCsv, tableToJson, type SourcedRow } from '../../app/fleet/table-export';
import { parseFilter } from '../../app/pod/view/filter-language';
import { descendingFirst, type OrderKey, type SortOrder } from '../filter/sort-rows';
import { errorText } from '../format/error-text';
import { describeNodeState, STATE_CATEGORIES, stateCategory, staleText, type StateCategory } from '../format/node-state';
import type { AppModel } from '../state/app-model';
import { fleetRowKey as rowKey, splitFleetKey as splitKey } from '../state/pod-store';
import { podMetricsLookup, type PodMetricsView } from '../../app/pod/view/pod-metrics';
import { downloadText } from '../bridge/download-text';
import { ComparePodsDialog, type PodOnSource } from './ComparePodsDialog';
import { MatrixTable, type CellPick } from './MatrixTable';
import { PodDetail } from './PodDetail';
import { PodsTable } from './PodsTable';
import { Tabs } from './Tabs';
import { useNow } from './use-model';
import { fileTimeStamp } from '../../app/util/default-file-names';
import { chosenColumns, emptyColumns } from '../columns/column-layout';
import { useColumnsUi } from '../columns/use-columns-ui';
import { useFieldSort } from '../columns/use-field-sort';
import { useSourcesFieldValues } from '../columns/use-sources-field-values';
import type { TableViewsState } from '../columns/use-table-views';
import type { PaletteItem } from '../keys/palette-match';
import { runCommand, useShortcuts } from '../keys/use-shortcuts';
import { FilterBar } from './FilterBar';

type View = 'pods' | 'compare';

/** Nothing left out: the header of the table over several sources, whose rows each say what their mask left out. */
const NONE: ReadonlySet<RowField> = new Set();

/**
 * Several sources at once: all their pods in one table (NODE is the source; filter with node:), and the
 * workload matrix with drift marked. A source that is not live keeps its pods on screen marked stale or
 * offline, never as live; the header counts the sources by state.
 */
export function FleetView(props: {
  model: AppModel;
  nodeIds: readonly string[];
  tableViews: TableViewsState;
  /** Where the : palette finds this table's saved views (it applies them here while this table is shown). */
  paletteViews: MutableRefObject<PaletteItem[]>;
  onError: (message: string) => void;
  onClear: () => void;
}) {
  const { model } = props;
  const bridge = model.bridge;
  const now = useNow(1000);
  const [view, setView] = useState<View>('pods');
  const [filterText, setFilterText] = useState('');
  const [order, setOrder] = useState<SortOrder>({ key: 'node', descending: false });
  const [selected, setSelected] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [matrix, setMatrix] = useState<WorkloadMatrixView | null>(null);
  const [matrixError, setMatrixError] = useState<string | null>(null);
  /** Two pods to show side by side: one opened and Compare with…, or two cells of a matrix row. */
  const [comparing, setComparing] = useState<{ from: PodOnSource; to?: PodOnSource } | null>(null);
  const [choosingColumns, setChoosingColumns] = useState(false);
  const filterRef = useRef<HTMLInputElement>(null);

  const nodes = props.nodeIds.flatMap((id) => model.node(id) ?? []);
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const counts = new Map<StateCategory, number>();
  for (const n of nodes) counts.set(stateCategory(n.state), (counts.get(stateCategory(n.state)) ?? 0) + 1);
  const rowsOnly = nodes.filter((n) => n.rowsOnly).length;

  const total = nodes.reduce((n, node) => n + model.pods.count(node.id), 0);
  const filter = useMemo(() => parseFilter(filterText), [filterText]);
  // Each row through its own source's mask; NODE is the source here, never left out.
  const masks = new Map(
    nodes.map((n) => [n.id, { notSelected: new Set(unselectedFields(ROW_FIELD_SOURCES, n.maskPaths).filter((f) => f !== 'node')), mask: n.mask }]),
  );
  const maskOf = (key: string) => masks.get(splitKey(key).nodeId) ?? { notSelected: NONE, mask: '' };
  // A row's CPU, memory and probes come from its own source's metrics (REST nodes), or say why there are none.
  // The same lookup while no source has a new reading, so the table's index does not sort or filter again.
  const readings = nodes.flatMap((n) => [n.id, model.metrics.get(n.id), n.state.phase === 'offline']);
  const lookup = useRef<{ readings: unknown[]; metricsOf: (row: Pick<PodRow, 'uid' | 'namespace' | 'name'>) => PodMetricsView } | null>(null);
  if (!lookup.current || lookup.current.readings.length !== readings.length || readings.some((r, i) => r !== lookup.current!.readings[i])) {
    lookup.current = {
      readings,
      metricsOf: (row) => {
        const { nodeId, uid } = splitKey(row.uid);
        return podMetricsLookup(model.metrics.get(nodeId), model.node(nodeId)?.state.phase === 'offline')({ ...row, uid });
      },
    };
  }
  const { metricsOf } = lookup.current;
  const noMetrics = nodes.every((n) => n.readFrom !== 'rest');
  // The same chooser and saved views as one node's table, with columns of its own (NODE shown by default).
  const columnsUi = useColumnsUi({ views: props.tableViews, kind: 'fleet', filterText, setFilterText, order, setOrder, noMetrics, closeDialog: () => setChoosingColumns(false) });
  props.paletteViews.current = columnsUi.paletteViews;
  const chosen = useMemo(() => chosenColumns(columnsUi.layout, emptyColumns(noMetrics)), [columnsUi.layout, noMetrics]);
  const fields = useSourcesFieldValues(model, nodes, chosen);
  const fieldKeyOf = useFieldSort(model, props.nodeIds, order.key, rowKey);
  // The NODE column names the source, as nodescope pods SRC SRC... does; node: filters and sorts by it. Sorted
  // and filtered by CPU, memory and probes too, each row by its own source's metrics; kept up to date batch by
  // batch, not sorted again for each.
  const rows = model.pods.fleetView(
    nodes.map((n) => ({ id: n.id, label: n.label })),
    filter,
    order,
    metricsOf,
    fieldKeyOf,
  );
  useEffect(() => () => model.pods.dropFleetView(), [model]);
  useShortcuts({
    filter: view === 'pods' ? () => filterRef.current?.focus() : undefined,
    columns: view === 'pods' ? () => setChoosingColumns(true) : undefined,
  });
  /** The first pod of a matrix cell, by its name on that source. */
  const podOfCell = (pick: CellPick): PodOnSource | null => {
    const nodeId = props.nodeIds[pick.source];
    const row = nodeId ? model.pods.rows(nodeId).find((r) => r.namespace === pick.namespace && r.name === pick.podName) : undefined;
    return nodeId && row ? { nodeId, uid: row.uid } : null;
  };
  const comparePair = (a: CellPick, b: CellPick) => {
    const from = podOfCell(a);
    const to = podOfCell(b);
    if (from && to) setComparing({ from, to });
    else props.onError(`${a.podName} or ${b.podName} is not on its source any more; compare again once the matrix is refreshed.`);
  };
  const staleOf = (key: string) => {
    const node = byId.get(splitKey(key).nodeId);
    return node ? staleText(node.state) : 'removed';
  };

  const idsKey = props.nodeIds.join(',');
  // The core sends the matrix, then a new one only when a source changed: no polling, and an unchanged
  // matrix (a hundred columns is a big table) is never drawn again. Another view or set of sources, or
  // leaving, ends the watch there.
  useEffect(() => {
    if (view !== 'compare') return;
    const shown = new AbortController();
    bridge
      .request('fleet.watchMatrix', { nodeIds: idsKey.split(',') }, {
        signal: shown.signal,
        onProgress: (m) => {
          setMatrix(m);
          setMatrixError(null);
        },
      })
      .catch((err: unknown) => !shown.signal.aborted && setMatrixError(errorText(err)));
    return () => shown.abort();
  }, [bridge, idsKey, view]);

  const sortBy = (key: OrderKey) => setOrder(order.key === key ? { key, descending: !order.descending } : { key, descending: descendingFirst(key) });
  const stamp = () => fileTimeStamp(new Date());
  const exportTable = (format: 'csv' | 'json') => {
    const sourced: SourcedRow[] = rows.map((r) => {
      const { nodeId, uid } = splitKey(r.uid);
      const node = byId.get(nodeId);
      return { source: r.node, sourceState: node ? (staleText(node.state) ?? 'live') : 'removed', row: { ...(model.pods.get(nodeId, uid) ?? r), uid } };
    });
    downloadText(`pods-${nodes.length}-sources-${stamp()}.${format}`, format === 'csv' ? tableToCsv(sourced) : tableToJson(sourced), format);
  };
  const exportMatrix = (format: 'csv' | 'json') => {
    if (!matrix) return;
    downloadText(`compare-${nodes.length}-sources-${stamp()}.${format}`, format === 'csv' ? matrixToCsv(matrix) : matrixToJson(matrix), format);
  };
  const exportShown = (format: 'csv' | 'json') => {
    try {
      if (view === 'pods') exportTable(format);
      else exportMatrix(format);
    } catch (err) {
      props.onError(errorText(err));
    }
  };
  const opened = open ? splitKey(open) : null;

  return (
    <>
      <header className="toolbar">
        <div className="node-heading">
          <h1>{nodes.length} sources</h1>
          <span className="state-counts inline" aria-label="Sources by state">
            {STATE_CATEGORIES.filter((c) => counts.has(c)).map((c) => (
              <span key={c} className={`count-chip count-${c}`}>
                <strong>{counts.get(c)}</strong> {c}
              </span>
            ))}
          </span>
          {rowsOnly > 0 && (
            <span
              className="tag"
              title={'More nodes are open than "Keep rows only above" in Settings: these keep what the table shows of their pods, and a pod you open is read from its node then. No pod history is kept for them.'}
            >
              {rowsOnly} rows only
            </span>
          )}
        </div>
        <span className="spacer" />
        <button type="button" className="button" onClick={() => exportShown('csv')} disabled={view === 'pods' ? rows.length === 0 : !matrix}>
          Export CSV
        </button>
        <button type="button" className="button" onClick={() => exportShown('json')} disabled={view === 'pods' ? rows.length === 0 : !matrix}>
          Export JSON
        </button>
        <button type="button" className="button" onClick={props.onClear} title="Back to one node">
          Clear selection
        </button>
      </header>
      <Tabs
        label="Views over the selected sources"
        tabs={[
          { id: 'pods', label: `Pods (${total})` },
          { id: 'compare', label: matrix && view === 'compare' ? `Compare (${matrix.drifted} drifted)` : 'Compare' },
        ]}
        selected={view}
        onSelect={setView}
        panelClassName="fleet-panel"
      >
        {view === 'pods' ? (
          <>
            <FilterBar
              filterRef={filterRef}
              text={filterText}
              filter={filter}
              onChange={setFilterText}
              onEnterTable={() => {
                // As over one node: the first row is selected, so Enter opens it.
                if (selected === null && rows[0]) setSelected(rows[0].uid);
                document.querySelector<HTMLElement>('.pods-grid')?.focus();
              }}
              onHelp={() => runCommand('help')}
              onColumns={() => setChoosingColumns(true)}
            />
            <StaleSources nodes={nodes} now={now} />
            <div className={open ? 'content split' : 'content'}>
              <PodsTable
                rows={rows}
                totalCount={total}
                order={order}
                onSort={sortBy}
                selectedUid={selected}
                onSelect={(key) => {
                  setSelected(key);
                  setOpen((was) => (was ? key : was));
                }}
                onOpen={(key) => {
                  setSelected(key);
                  setOpen(key);
                }}
                changedAt={(key) => {
                  const { nodeId, uid } = splitKey(key);
                  return model.pods.changedAt(nodeId, uid);
                }}
                lastChange={(key) => {
                  const { nodeId, uid } = splitKey(key);
                  return model.pods.lastChange(nodeId, uid);
                }}
                notSelected={NONE}
                mask=""
                maskOf={maskOf}
                staleOf={staleOf}
                metricsOf={metricsOf}
                noMetrics={noMetrics}
                manySources
                chosen={chosen}
                {...fields}
                emptyText={total > 0 ? 'No pod matches the filter.' : 'No pods on the selected sources.'}
              />
              {opened && (
                <PodDetail
                  bridge={bridge}
                  nodeId={opened.nodeId}
                  uid={opened.uid}
                  row={model.pods.get(opened.nodeId, opened.uid)}
                  metrics={metricsOf({ uid: rowKey(opened.nodeId, opened.uid), namespace: model.pods.get(opened.nodeId, opened.uid)?.namespace ?? '', name: model.pods.get(opened.nodeId, opened.uid)?.name ?? '' })}
                  onClose={() => setOpen(null)}
                  onCompareWith={() => setComparing({ from: opened })}
                  rowsOnly={model.node(opened.nodeId)?.rowsOnly === true}
                />
              )}
            </div>
          </>
        ) : (
          <div className="matrix-panel">
            {matrixError && (
              <p className="field-error" role="alert">
                {matrixError}
              </p>
            )}
            {matrix ? <MatrixTable matrix={matrix} onComparePair={comparePair} /> : !matrixError && <p className="muted">Comparing…</p>}
          </div>
        )}
      </Tabs>
      {choosingColumns && columnsUi.chooser}
      {comparing && (
        <ComparePodsDialog
          bridge={bridge}
          nodes={model.nodes}
          rows={(id) => model.pods.rows(id)}
          from={{ ...comparing.from, row: model.pods.get(comparing.from.nodeId, comparing.from.uid) }}
          {...(comparing.to ? { to: comparing.to } : {})}
          onClose={() => setComparing(null)}
        />
      )}
    </>
  );
}

/** Names the selected sources whose pods are not live, so no row of theirs is taken for the present. */
function StaleSources({ nodes, now }: { nodes: NodeInfo[]; now: number }) {
  const stale = nodes.filter((n) => n.state.phase !== 'live');
  if (stale.length === 0) return null;
  return (
    <div className="fleet-stale" role="note">
      Not live, pods as last seen or from a file:{' '}
      {stale.map((n, i) => (
        <span key={n.id}>
          {i > 0 && ', '}
          <strong>{n.label}</strong> ({describeNodeState(n.state, now).title})
        </span>
      ))}
    </div>
  );
}
