import { describe, expect, it } from 'vitest';
import type { PodRow } from '../contract/pods';
import { tableToCsv, tableToJson } from './table-export';

const row = (over: Partial<PodRow>): PodRow => ({
  uid: 'u1', namespace: 'default', name: 'web-1', phase: 'Running', status: 'Running', ready: 1, total: 2, restarts: 3,
  createdAt: '2026-11-20T10:00:00Z', podIP: '10.0.0.5', node: 'worker-1', ownerKind: 'ReplicaSet', ownerName: 'web-7d9', isStatic: false,
  labels: {}, deleting: false, ...over,
});

describe('the pods table over several sources, exported', () => {
  it('carries each row\'s source and whether it was live, in CSV and JSON', () => {
    const rows = [
      { source: 'worker-1', sourceState: 'live', row: row({}) },
      { source: 'before.json', sourceState: 'offline', row: row({ uid: 'u2', name: '=cmd|calc', deleting: true }) },
    ];
    expect(tableToCsv(rows).split('\r\n')).toEqual([
      'source,source_state,namespace,name,status,ready,restarts,created,pod_ip,node,owner_kind,owner_name,static,uid',
      'worker-1,live,default,web-1,Running,1/2,3,2026-11-20T10:00:00Z,10.0.0.5,worker-1,ReplicaSet,web-7d9,false,u1',
      // A name a spreadsheet would run as a formula is made inert; a terminating pod says so.
      "before.json,offline,default,'=cmd|calc,Terminating,1/2,3,2026-11-20T10:00:00Z,10.0.0.5,worker-1,ReplicaSet,web-7d9,false,u2",
      '',
    ]);
    const json = JSON.parse(tableToJson(rows)) as { kind: string; rows: Record<string, unknown>[] };
    expect(json.kind).toBe('NodescopePodTable');
    expect(json.rows.map((r) => [r.source, r.sourceState, r.name])).toEqual([['worker-1', 'live', 'web-1'], ['before.json', 'offline', '=cmd|calc']]);
  });
});
