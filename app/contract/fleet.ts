import { z } from 'zod';

/** One cell of the workload matrix: the workload's pods on one source (app/fleet/workload-matrix.ts). */
const MatrixCellSchema = z.object({
  pods: z.number().int().min(0),
  readyPods: z.number().int().min(0),
  phases: z.record(z.string(), z.number().int().min(0)),
  restarts: z.number().int().min(0),
  podNames: z.array(z.string()),
});

/** The workload matrix over the selected sources: rows by workload, columns by source, drift per row. */
export const WorkloadMatrixSchema = z.object({
  /** id is the source's label; error says why its column is unknown (not live, failed), never zeros. */
  sources: z.array(z.object({ id: z.string(), error: z.string().optional() })),
  rows: z.array(
    z.object({
      workload: z.object({ namespace: z.string(), kind: z.string(), name: z.string() }),
      key: z.string(),
      cells: z.array(MatrixCellSchema.nullable()),
      drift: z.array(z.object({ kind: z.enum(['image', 'resources', 'args', 'env', 'missing']), container: z.string().optional(), values: z.record(z.string(), z.string()) })),
    }),
  ),
  drifted: z.number().int().min(0),
});
export type WorkloadMatrixView = z.infer<typeof WorkloadMatrixSchema>;

export const MatrixRequestSchema = z.object({
  // A repeated id would be one more column of the same source: 1,000 of one made a 22 MB answer.
  nodeIds: z
    .array(z.string().min(1))
    .min(1, 'Select the sources to compare')
    .max(1000)
    .refine((ids) => new Set(ids).size === ids.length, 'Give each source once'),
});
