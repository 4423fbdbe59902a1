/**
 * The pods table over several sources as CSV and JSON: the rows as shown (filtered, sorted), each with
 * its source and whether that source was live, so a stale or offline source's pods never pass for live
 * ones in a spreadsheet either. Browser-safe.
 */
import type { PodRow } from '../contract/pods';
import { csvField } from './matrix-export';

/** A row of the table and the source it came from; state: 'live', 'offline' (a file) or why it is stale. */
export interface SourcedRow {
  source: string;
  sourceState: string;
  row: PodRow;
}

const HEADER = ['source', 'source_state', 'namespace', 'name', 'status', 'ready', 'restarts', 'created', 'pod_ip', 'node', 'owner_kind', 'owner_name', 'static', 'uid'];

export function tableToCsv(rows: readonly SourcedRow[]): string {
  const lines = [HEADER.join(',')];
  for (const { source, sourceState, row: r } of rows) {
    lines.push(
      [source, sourceState, r.namespace, r.name, r.deleting ? 'Terminating' : r.status, `${r.ready}/${r.total}`, r.restarts, r.createdAt ?? '', r.podIP, r.node, r.ownerKind, r.ownerName, r.isStatic ? 'true' : 'false', r.uid]
        .map(csvField)
        .join(','),
    );
  }
  return lines.join('\r\n') + '\r\n';
}

export function tableToJson(rows: readonly SourcedRow[]): string {
  return `${JSON.stringify({ kind: 'NodescopePodTable', version: 1, rows: rows.map(({ source, sourceState, row }) => ({ source, sourceState, ...row })) }, null, 2)}\n`;
}
