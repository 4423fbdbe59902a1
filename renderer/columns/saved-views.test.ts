import { describe, expect, it } from 'vitest';
import type { SavedView } from '../../app/contract/table-views';
import { removeView, upsertView, viewOrder } from './saved-views';

const view = (name: string, filter = ''): SavedView => ({ name, filter, sort: { key: 'restarts', descending: true }, columns: { columns: [] } });

describe('saved views', () => {
  it('keeps one view per name, in name order; saving under a name again replaces it', () => {
    let saved = upsertView([], view('Crash loops', 'phase:CrashLoopBackOff'));
    saved = upsertView(saved, view('DaemonSets', 'owner:DaemonSet'));
    saved = upsertView(saved, view(' Crash loops ', 'is:restarted'));
    expect(saved.map((v) => [v.name, v.filter])).toEqual([
      ['Crash loops', 'is:restarted'],
      ['DaemonSets', 'owner:DaemonSet'],
    ]);
    expect(removeView(saved, 'DaemonSets').map((v) => v.name)).toEqual(['Crash loops']);
  });

  it('restores the sort it was saved with, unless this version cannot sort by that column', () => {
    const current = { key: 'name', descending: false } as const;
    expect(viewOrder(view('a'), current)).toEqual({ key: 'restarts', descending: true });
    expect(viewOrder({ ...view('a'), sort: { key: 'sparkle', descending: true } }, current)).toBe(current);
    // A column of a pod field sorts too, and keeps its sort in the view.
    expect(viewOrder({ ...view('a'), sort: { key: 'field:spec.priorityClassName', descending: false } }, current)).toEqual({ key: 'field:spec.priorityClassName', descending: false });
    expect(viewOrder({ ...view('a'), sort: { key: 'field:', descending: false } }, current)).toBe(current);
  });
});
