import { describe, expect, it } from 'vitest';
import { chosenColumns, normalizeLayout, reduceColumns } from '../columns/column-layout';
import { shownColumns, type ColumnContext } from './pod-columns';

const keys = (width: number, ctx: Partial<ColumnContext> = {}) => shownColumns(width, { manySources: false, noMetrics: false, sortKey: 'namespace', ...ctx }).map((c) => c.key);

describe('pod table columns by width', () => {
  it('shows every column when they fit, and before the table is laid out', () => {
    expect(keys(1400)).toHaveLength(13);
    expect(keys(0)).toHaveLength(13);
  });

  it('over several sources keeps Node at any width, giving up Owner, Static and the empty metrics first', () => {
    for (const width of [1320, 1200, 1000, 800, 600, 400]) {
      const shown = keys(width, { manySources: true, noMetrics: true });
      expect(shown, `${width}px`).toContain('node');
      expect(shown).toEqual(expect.arrayContaining(['name', 'status']));
      if (width >= 600) expect(shown).toContain('namespace');
    }
    // A 1440 px window leaves a table of about 1190 px: n/a columns go, Node and Owner stay.
    const at1190 = keys(1190, { manySources: true, noMetrics: true });
    expect(at1190).toEqual(expect.arrayContaining(['node', 'ownerKind', 'podIP', 'ready', 'restarts', 'age']));
    expect(at1190).not.toContain('cpu');
  });

  it('drops CPU, memory and probes before anything else when no source gives them, and last when they do', () => {
    expect(keys(1250, { noMetrics: true })).toEqual(['namespace', 'name', 'status', 'ready', 'restarts', 'age', 'podIP', 'node', 'ownerKind', 'isStatic']);
    expect(keys(700)).toEqual(expect.arrayContaining(['cpu', 'memory', 'probes']));
    expect(keys(700)).not.toContain('ready');
  });

  it('keeps the column sorted by while it fits beside name and status, so its arrow is seen', () => {
    expect(keys(600, { sortKey: 'isStatic' })).toContain('isStatic');
    expect(keys(600, { sortKey: 'node' })).toContain('node');
    expect(keys(600, { sortKey: 'cpu', noMetrics: true })).toContain('cpu');
    // A 1024 px window with a pod open leaves the table about 416 px: the namespace gives way to it.
    expect(keys(416, { sortKey: 'restarts', noMetrics: true })).toEqual(['name', 'status', 'restarts']);
    expect(keys(416, { manySources: true, sortKey: 'node', noMetrics: true })).toEqual(['name', 'status', 'node']);
    expect(keys(300, { sortKey: 'restarts' })).toEqual(['name', 'status']);
  });
});

describe('pod table columns the user chose', () => {
  it('shows them in the order chosen, and gives up a field column the user added after the columns no one asked for', () => {
    const chosen = chosenColumns(reduceColumns(normalizeLayout(undefined), { type: 'addField', path: 'spec.restartPolicy' }), new Set(['cpu', 'memory', 'probes']));
    const at = (width: number) => shownColumns(width, { manySources: false, noMetrics: true, sortKey: 'namespace', chosen }).map((c) => c.key);
    expect(at(0).at(-1)).toBe('field:spec.restartPolicy');
    expect(at(950)).toContain('field:spec.restartPolicy');
    expect(at(950)).not.toContain('node');
    expect(at(600)).not.toContain('field:spec.restartPolicy');
  });
});
