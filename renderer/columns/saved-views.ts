import type { SavedView } from '../../app/contract/table-views';
import { SORT_KEYS, type SortOrder } from '../filter/sort-rows';
import { isFieldKey } from './field-key';

/** A view saved again under its name replaces the old one; the list stays in name order. */
export function upsertView(saved: readonly SavedView[], view: SavedView): SavedView[] {
  const name = view.name.trim();
  return [...saved.filter((v) => v.name !== name), { ...view, name }].sort((a, b) => a.name.localeCompare(b.name));
}

export const removeView = (saved: readonly SavedView[], name: string): SavedView[] => saved.filter((v) => v.name !== name);

/** The sort a view was saved with (a built-in column or a field's); a column this version cannot sort by leaves the sort as it is. */
export function viewOrder(view: SavedView, current: SortOrder): SortOrder {
  const saved = view.sort.key;
  const key = isFieldKey(saved) ? saved : SORT_KEYS.find((k) => k === saved);
  return key ? { key, descending: view.sort.descending } : current;
}
