import { describe, expect, it } from 'vitest';
import type { NodeInfo } from '../../app/contract/nodes';
import { COLLAPSED_PAST, sidebarView, type SidebarQuery } from './sidebar-rows';

const node = (id: string, state: NodeInfo['state'], group?: string): NodeInfo => ({
  id,
  label: id,
  simulated: false,
  spec: { kind: 'ssh', host: id, ...(group ? { group } : {}) },
  state,
  mask: '',
  maskPaths: [],
  maskHonoured: null,
  podCount: 0,
});
const live = { phase: 'live', since: 0 } as const;
const failed = { phase: 'error', cause: 'refused', nextStep: 'start sshd' } as const;
const query = (q: Partial<SidebarQuery> = {}): SidebarQuery => ({ search: '', stateFilter: null, toggled: new Map(), selectedId: null, ...q });
const big = Array.from({ length: COLLAPSED_PAST + 1 }, (_, i) => node(`big-${i}`, i === 0 ? failed : i === 1 ? { phase: 'reconnecting', attempt: 2, retryAt: 0, cause: 'x' } : live, 'big'));
const small = [node('small-1', live, 'small'), node('small-2', { phase: 'connecting', attempt: 1 }, 'small')];
const loose = node('loose', live);
const all = [loose, ...big, ...small];
const shape = (rows: ReturnType<typeof sidebarView>['rows']) => rows.map((r) => (r.kind === 'group' ? `${r.group || '-'}${r.expanded ? '▾' : '▸'}${r.size}` : r.node.id));

describe('sidebarView', () => {
  it('lists the nodes plainly until a group is named', () => {
    expect(shape(sidebarView([loose, node('other', live)], query()).rows)).toEqual(['loose', 'other']);
  });

  it('opens small groups and closes large ones, ungrouped first, counting each group by state', () => {
    const view = sidebarView(all, query());
    expect(shape(view.rows)).toEqual(['-▾1', 'loose', `big▸${big.length}`, 'small▾2', 'small-1', 'small-2']);
    const heading = view.rows.find((r) => r.kind === 'group' && r.group === 'big');
    expect(heading?.kind === 'group' && heading.counts).toEqual({ live: big.length - 2, connecting: 1, failed: 1, offline: 0 });
    expect(Object.fromEntries(view.counts)).toEqual({ live: big.length, error: 1, reconnecting: 1, connecting: 1 });
  });

  it("keeps the user's choice, and opens a large group that holds the selected node", () => {
    expect(shape(sidebarView(all, query({ toggled: new Map([['small', false]]) })).rows)).toEqual(['-▾1', 'loose', `big▸${big.length}`, 'small▸2']);
    expect(shape(sidebarView(all, query({ selectedId: 'big-3' })).rows)).toContain('big-3');
    expect(shape(sidebarView(all, query({ selectedId: 'big-3', toggled: new Map([['big', false]]) })).rows)).not.toContain('big-3');
  });

  it('opens the groups that hold what a search or a state finds, and only those nodes', () => {
    expect(shape(sidebarView(all, query({ search: 'BIG-1' })).rows)).toEqual(['big▾11', 'big-1', ...Array.from({ length: 10 }, (_, i) => `big-${10 + i}`)]);
    const errors = sidebarView(all, query({ stateFilter: 'error' }));
    expect(shape(errors.rows)).toEqual(['big▾1', 'big-0']);
    expect(errors.shown.map((n) => n.id)).toEqual(['big-0']);
  });
});
