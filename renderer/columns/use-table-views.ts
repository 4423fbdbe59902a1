import { useCallback, useEffect, useRef, useState } from 'react';
import type { Bridge } from '../../app/contract/bridge';
import type { ColumnLayout, SavedView, TableKind, TableViews } from '../../app/contract/table-views';
import { errorText } from '../format/error-text';
import { normalizeLayout } from './column-layout';
import { removeView, upsertView } from './saved-views';

export interface TableViewsState {
  /** The table's columns as the user left them (every built-in column listed). */
  layout(kind: TableKind): ColumnLayout;
  setLayout(kind: TableKind, layout: ColumnLayout): void;
  saved: readonly SavedView[];
  saveView(view: SavedView): void;
  deleteView(name: string): void;
  /** Why the last change could not be saved; it still applies until the window closes. */
  problem: string | null;
}

const EMPTY: TableViews = { layouts: {}, saved: [] };

/**
 * The columns and saved views, read from the app core once and written back on every change (the
 * app core keeps them across restarts). A host without them (the design preview) keeps them in memory.
 */
export function useTableViews(bridge: Bridge): TableViewsState {
  const [views, setViews] = useState<TableViews>(EMPTY);
  const [problem, setProblem] = useState<string | null>(null);
  const current = useRef(views);
  /** Changes made before the saved ones arrived are not lost under them. */
  const changed = useRef(false);
  useEffect(() => {
    bridge.request('ui.tableViews', {}).then(
      (loaded) => {
        if (changed.current) return;
        current.current = loaded;
        setViews(loaded);
      },
      () => undefined,
    );
  }, [bridge]);
  const update = useCallback(
    (next: (v: TableViews) => TableViews) => {
      changed.current = true;
      const updated = next(current.current);
      current.current = updated;
      setViews(updated);
      bridge.request('ui.setTableViews', updated).then(
        () => setProblem(null),
        (err: unknown) => setProblem(`Columns and views apply here but were not saved: ${errorText(err)}`),
      );
    },
    [bridge],
  );
  return {
    layout: (kind) => normalizeLayout(views.layouts[kind]),
    setLayout: (kind, layout) => update((v) => ({ ...v, layouts: { ...v.layouts, [kind]: layout } })),
    saved: views.saved,
    saveView: (view) => update((v) => ({ ...v, saved: upsertView(v.saved, view) })),
    deleteView: (name) => update((v) => ({ ...v, saved: removeView(v.saved, name) })),
    problem,
  };
}
