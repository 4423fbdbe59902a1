import type { ColumnLayout } from '../../app/contract/table-views';
import { keepsAnyOf } from '../../app/mask/mask-coverage';
import { POD_COLUMNS, type PodColumn } from '../components/pod-columns';
import { fieldColumnKey, fieldPathOf, isFieldKey } from './field-key';

/**
 * The pod table's columns as the user arranges them (the column chooser): which are shown, in what
 * order, and columns of any pod field. Pure, so the chooser, the saved views and the table agree.
 */

/** A field column: headed by the path's last name (the whole path on hover), as wide as a name. */
export function fieldColumn(path: string): PodColumn {
  return { key: fieldColumnKey(path), path, label: path.slice(path.lastIndexOf('.') + 1), className: 'c-field', min: 120, grow: 1 };
}

const BUILT_IN = new Map<string, PodColumn>(POD_COLUMNS.map((c) => [c.key, c]));

/** The column an entry names; undefined for an id this version does not know (kept, not shown). */
export function columnOf(id: string): PodColumn | undefined {
  return BUILT_IN.get(id) ?? (isFieldKey(id) ? fieldColumn(fieldPathOf(id)) : undefined);
}

/**
 * A layout with every built-in column once: a saved one from an older version gets the columns added
 * since at their default place (after the one before them), one that names a column twice keeps the first.
 */
export function normalizeLayout(layout: ColumnLayout | undefined): ColumnLayout {
  const seen = new Set<string>();
  const columns = (layout?.columns ?? []).filter((c) => !seen.has(c.id) && (seen.add(c.id), true));
  POD_COLUMNS.forEach((c, i) => {
    if (seen.has(c.key)) return;
    const before = i === 0 ? -1 : columns.findIndex((e) => e.id === POD_COLUMNS[i - 1]!.key);
    columns.splice(before + 1, 0, { id: c.key });
  });
  return { columns };
}

export type ColumnAction =
  /** Shows a column hidden now, or hides one shown now (its default no longer applies). */
  | { type: 'toggle'; id: string; shownNow: boolean }
  /** One place earlier (-1) or later (+1). */
  | { type: 'move'; id: string; by: -1 | 1 }
  /** A column of a pod field, shown, at the end; a field already there is shown again. */
  | { type: 'addField'; path: string }
  /** A field column goes; built-in ones are only hidden. */
  | { type: 'remove'; id: string }
  | { type: 'reset' };

export function reduceColumns(layout: ColumnLayout, action: ColumnAction): ColumnLayout {
  const columns = layout.columns;
  switch (action.type) {
    case 'toggle':
      return { columns: columns.map((c) => (c.id === action.id ? { id: c.id, shown: !action.shownNow } : c)) };
    case 'move': {
      const from = columns.findIndex((c) => c.id === action.id);
      const to = from + action.by;
      if (from < 0 || to < 0 || to >= columns.length) return layout;
      const next = [...columns];
      [next[from], next[to]] = [next[to]!, next[from]!];
      return { columns: next };
    }
    case 'addField': {
      const id = fieldColumnKey(action.path);
      if (columns.some((c) => c.id === id)) return reduceColumns(layout, { type: 'toggle', id, shownNow: false });
      return { columns: [...columns, { id, shown: true }] };
    }
    case 'remove':
      return isFieldKey(action.id) ? { columns: columns.filter((c) => c.id !== action.id) } : layout;
    case 'reset':
      return normalizeLayout(undefined);
  }
}

const METRICS: ReadonlySet<string> = new Set(['cpu', 'memory', 'probes']);
const NONE: ReadonlySet<string> = new Set();
/** The columns no row has data for: CPU, memory and probes where no source in view gives them (they say n/a). */
export const emptyColumns = (noMetrics: boolean): ReadonlySet<string> => (noMetrics ? METRICS : NONE);

/** Whether an entry is shown: the user's choice, else shown unless no row in view has a value there. */
export const isShown = (entry: ColumnLayout['columns'][number], empty: ReadonlySet<string>): boolean => entry.shown ?? !empty.has(entry.id);

/** The columns shown, in order (before a narrow table drops any: pod-columns.ts). */
export function chosenColumns(layout: ColumnLayout, empty: ReadonlySet<string>): PodColumn[] {
  return layout.columns.flatMap((entry) => {
    const column = isShown(entry, empty) ? columnOf(entry.id) : undefined;
    return column ? [column] : [];
  });
}

/** Whether a source's field mask (its paths; none: whole pods) leaves a field column's path out. */
export const maskLeavesOut = (maskPaths: readonly string[], path: string): boolean => maskPaths.length > 0 && !keepsAnyOf(maskPaths, path);
