import { describe, expect, it } from 'vitest';
import { POD_COLUMNS } from '../components/pod-columns';
import { chosenColumns, normalizeLayout, reduceColumns, type ColumnAction } from './column-layout';

const ALL = POD_COLUMNS.map((c) => c.key);
const NONE = new Set<string>();
const METRICS_EMPTY = new Set(['cpu', 'memory', 'probes']);
const keys = (actions: ColumnAction[], empty: ReadonlySet<string> = NONE) =>
  chosenColumns(actions.reduce(reduceColumns, normalizeLayout(undefined)), empty).map((c) => c.key);

describe('the column layout', () => {
  it('shows every built-in column by default, except those with no data in view', () => {
    expect(keys([])).toEqual(ALL);
    expect(keys([], METRICS_EMPTY)).toEqual(ALL.filter((k) => !METRICS_EMPTY.has(k)));
  });

  it('hides and shows columns, the user’s choice winning over the default either way', () => {
    expect(keys([{ type: 'toggle', id: 'podIP', shownNow: true }])).not.toContain('podIP');
    expect(keys([{ type: 'toggle', id: 'cpu', shownNow: false }], METRICS_EMPTY)).toContain('cpu');
    expect(keys([{ type: 'toggle', id: 'podIP', shownNow: true }, { type: 'toggle', id: 'podIP', shownNow: false }])).toContain('podIP');
  });

  it('moves a column one place at a time, never past either end', () => {
    expect(keys([{ type: 'move', id: 'node', by: -1 }]).slice(8, 11)).toEqual(['probes', 'node', 'podIP']);
    expect(keys([{ type: 'move', id: 'namespace', by: -1 }])).toEqual(ALL);
    expect(keys([{ type: 'move', id: 'isStatic', by: 1 }])).toEqual(ALL);
  });

  it('adds a column of any field at the end, shown; adding it again shows it, removing it drops it', () => {
    const added: ColumnAction = { type: 'addField', path: 'spec.priorityClassName' };
    expect(keys([added])).toEqual([...ALL, 'field:spec.priorityClassName']);
    const layout = [added, { type: 'toggle', id: 'field:spec.priorityClassName', shownNow: true } as const, added].reduce(reduceColumns, normalizeLayout(undefined));
    expect(layout.columns.filter((c) => c.id.startsWith('field:'))).toEqual([{ id: 'field:spec.priorityClassName', shown: true }]);
    expect(keys([added, { type: 'remove', id: 'field:spec.priorityClassName' }])).toEqual(ALL);
    // A built-in column is only ever hidden.
    expect(keys([{ type: 'remove', id: 'name' }])).toEqual(ALL);
    expect(chosenColumns(reduceColumns(normalizeLayout(undefined), added), NONE).at(-1)).toMatchObject({ label: 'priorityClassName', path: 'spec.priorityClassName' });
  });

  it('reads a layout saved by another version: new columns at their place, unknown ones kept but not shown, duplicates once', () => {
    const saved = { columns: [{ id: 'name' }, { id: 'namespace', shown: false }, { id: 'sparkle' }, { id: 'name' }] };
    const layout = normalizeLayout(saved);
    const order = ['name', 'status', 'ready', 'restarts', 'age', 'cpu', 'memory', 'probes', 'podIP', 'node', 'ownerKind', 'isStatic', 'namespace', 'sparkle'];
    expect(layout.columns.map((c) => c.id)).toEqual(order);
    expect(chosenColumns(layout, NONE).map((c) => c.key)).toEqual(order.filter((k) => k !== 'namespace' && k !== 'sparkle'));
    expect(reduceColumns(layout, { type: 'reset' })).toEqual(normalizeLayout(undefined));
  });
});
