import { describe, expect, it } from 'vitest';
import type { DiffEntry } from '../../app/contract/diff';
import { testRow } from '../../app/contract/testing/test-row';
import { groupDiffEntries } from './group-entries';

const entry = (change: DiffEntry['change'], namespace: string, ownerKind: string, ownerName: string, name: string): DiffEntry => ({
  change,
  row: testRow({ uid: name, name, namespace, ownerKind, ownerName }),
  changes: [],
  moreChanges: 0,
});

describe('groupDiffEntries', () => {
  it('groups compared pods by namespace and owner with counts per change, both sorted', () => {
    const groups = groupDiffEntries([
      entry('changed', 'shop', 'ReplicaSet', 'web-5d', 'web-5d-a'),
      entry('added', 'kube-system', 'DaemonSet', 'proxy', 'proxy-x'),
      entry('removed', 'shop', 'ReplicaSet', 'web-5d', 'web-5d-b'),
      entry('changed', 'shop', '', '', 'lonely'),
    ]);
    expect(groups.map((g) => [g.namespace, g.counts])).toEqual([
      ['kube-system', { added: 1, removed: 0, changed: 0 }],
      ['shop', { added: 0, removed: 1, changed: 2 }],
    ]);
    expect(groups[1]!.owners.map((o) => [o.owner, o.counts.changed + o.counts.removed, o.entries.map((e) => e.row.name)])).toEqual([
      ['', 1, ['lonely']],
      ['ReplicaSet/web-5d', 2, ['web-5d-a', 'web-5d-b']],
    ]);
  });
});
