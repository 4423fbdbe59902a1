import type { ReactNode } from 'react';
import type { Bridge } from '../../app/contract/bridge';
import type { NodeMetrics } from '../../app/contract/node-metrics';
import type { NodeInfo } from '../../app/contract/nodes';
import type { ColumnLayout, SavedView } from '../../app/contract/table-views';
import type { SortOrder } from '../filter/sort-rows';
import type { PaletteItem } from '../keys/palette-match';
import { ColumnChooser } from './ColumnChooser';
import { emptyColumns, normalizeLayout } from './column-layout';
import { viewOrder } from './saved-views';
import { useTableViews } from './use-table-views';

/**
 * The node table's columns and saved views for the window: the layout the table shows, the views the
 * : palette offers, and the chooser dialog (the `v` key). A view sets the filter, the sort and the columns.
 */
export function useColumnsUi(a: {
  bridge: Bridge;
  filterText: string;
  setFilterText: (text: string) => void;
  order: SortOrder;
  setOrder: (order: SortOrder) => void;
  node: NodeInfo | undefined;
  nodeMetrics: NodeMetrics | undefined;
  closeDialog: () => void;
}): { layout: ColumnLayout; noMetrics: boolean; paletteViews: PaletteItem[]; chooser: ReactNode } {
  const views = useTableViews(a.bridge);
  // What the node gives beside its pods, once known; until then only a REST node may give metrics.
  const noMetrics = a.nodeMetrics ? !a.nodeMetrics.usage.available && !a.nodeMetrics.probes.available : a.node?.readFrom !== 'rest';
  const layout = views.layout('node');
  const apply = (view: SavedView) => {
    a.setFilterText(view.filter);
    a.setOrder(viewOrder(view, a.order));
    views.setLayout('node', normalizeLayout(view.columns));
  };
  return {
    layout,
    noMetrics,
    paletteViews: views.saved.map((view): PaletteItem => ({ kind: 'Saved view', label: view.name, run: () => apply(view) })),
    chooser: (
      <ColumnChooser
        layout={layout}
        empty={emptyColumns(noMetrics)}
        onChange={(next) => views.setLayout('node', next)}
        saved={views.saved}
        onSaveView={(name) => views.saveView({ name, filter: a.filterText, sort: { ...a.order }, columns: layout })}
        onApplyView={(view) => {
          apply(view);
          a.closeDialog();
        }}
        onDeleteView={views.deleteView}
        filter={a.filterText}
        problem={views.problem}
        onClose={a.closeDialog}
      />
    ),
  };
}
