import type { ReactNode } from 'react';
import type { ColumnLayout, SavedView, TableKind } from '../../app/contract/table-views';
import type { SortOrder } from '../filter/sort-rows';
import type { PaletteItem } from '../keys/palette-match';
import { ColumnChooser } from './ColumnChooser';
import { emptyColumns, normalizeLayout } from './column-layout';
import { viewOrder } from './saved-views';
import type { TableViewsState } from './use-table-views';

/**
 * A pods table's columns and the saved views, for one kind of table (one node's, or the one over several
 * sources): the layout the table shows, the views the : palette offers, and the chooser dialog (the `v`
 * key). A view sets the filter, the sort and the columns of the table it is applied to.
 */
export function useColumnsUi(a: {
  /** The window's one copy of the columns and views (use-table-views.ts), shared by both tables. */
  views: TableViewsState;
  kind: TableKind;
  filterText: string;
  setFilterText: (text: string) => void;
  order: SortOrder;
  setOrder: (order: SortOrder) => void;
  /** No source in view gives CPU, memory or probes: those columns are hidden until shown by hand. */
  noMetrics: boolean;
  closeDialog: () => void;
}): { layout: ColumnLayout; noMetrics: boolean; paletteViews: PaletteItem[]; chooser: ReactNode } {
  const { views, kind, noMetrics } = a;
  const layout = views.layout(kind);
  const apply = (view: SavedView) => {
    a.setFilterText(view.filter);
    a.setOrder(viewOrder(view, a.order));
    views.setLayout(kind, normalizeLayout(view.columns));
  };
  return {
    layout,
    noMetrics,
    paletteViews: views.saved.map((view): PaletteItem => ({ kind: 'Saved view', label: view.name, run: () => apply(view) })),
    chooser: (
      <ColumnChooser
        layout={layout}
        empty={emptyColumns(noMetrics)}
        onChange={(next) => views.setLayout(kind, next)}
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
