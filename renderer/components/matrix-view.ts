import type { WorkloadMatrixView } from '../../app/contract/fleet';

export type MatrixRowView = WorkloadMatrixView['rows'][number];

/** The sources a row's drift sets apart: for each drift, those whose value is not the most common one. */
export function driftedSources(row: MatrixRowView): Map<string, string[]> {
  const apart = new Map<string, string[]>();
  for (const d of row.drift) {
    const tally = new Map<string, number>();
    for (const v of Object.values(d.values)) tally.set(v, (tally.get(v) ?? 0) + 1);
    // 'missing' always marks the sources without it; otherwise the minority differs from the rest.
    const norm = d.kind === 'missing' ? 'present' : [...tally.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
    for (const [source, v] of Object.entries(d.values)) {
      if (v === norm) continue;
      const what = d.container ? `${d.kind} of ${d.container}: ${v}` : d.kind;
      apart.set(source, [...(apart.get(source) ?? []), what]);
    }
  }
  return apart;
}

export interface MatrixChoice {
  /** Workloads whose key contains it (case-insensitive). */
  query: string;
  /** Only workloads with drift. */
  driftOnly: boolean;
  /** Only the sources a shown workload's drift sets apart, and those not read (which cannot be said alike). */
  differOnly: boolean;
}

/** The rows and the columns (indexes into the matrix's sources) a choice shows. */
export function visibleMatrix(matrix: WorkloadMatrixView, choice: MatrixChoice): { rows: MatrixRowView[]; sources: number[] } {
  const needle = choice.query.trim().toLowerCase();
  const rows = matrix.rows.filter((r) => (!choice.driftOnly || r.drift.length > 0) && (!needle || r.key.toLowerCase().includes(needle)));
  const all = matrix.sources.map((_, i) => i);
  if (!choice.differOnly) return { rows, sources: all };
  const apart = new Set(rows.flatMap((r) => [...driftedSources(r).keys()]));
  return { rows, sources: all.filter((i) => apart.has(matrix.sources[i]!.id) || matrix.sources[i]!.error !== undefined) };
}
