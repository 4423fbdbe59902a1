import { z } from 'zod';
import { NodeIdSchema } from './nodes';

/** How much pod history each source keeps (see app/core/pod-history.ts for the defaults). */
export const HistoryLimitsSchema = z.object({
  /** Earlier versions kept per pod, besides the current one. */
  perPod: z.number().int().min(0).max(100_000),
  /** Estimated bytes the earlier versions of one source may take; past it the oldest go first. */
  totalBytes: z.number().int().min(0).max(64 * 1024 ** 3),
  /** How long a deleted pod's history is kept after its deletion, in ms. */
  deletedRetentionMs: z.number().int().min(0).max(30 * 86_400_000),
});
export type HistoryLimitsView = z.infer<typeof HistoryLimitsSchema>;

export const VersionEventSchema = z.enum(['LISTED', 'ADDED', 'MODIFIED', 'DELETED']);

/** One version of a pod in its timeline. */
export const PodVersionInfoSchema = z.object({
  /** Names the version for pods.version (unique within the source). */
  id: z.number().int().min(1),
  /** When it arrived (epoch ms). */
  time: z.number(),
  /** What brought it: a list (first list, relist, a file) or a watch event. */
  event: VersionEventSchema,
  /** What changed from the version before, in one line (the events feed's wording). */
  change: z.string(),
});
export type PodVersionInfo = z.infer<typeof PodVersionInfoSchema>;

/**
 * The end of the log of one of the pod's container instances, kept when the watch saw it end (a restart, a
 * failed pod) or, on a recording, when the recorder did: logs.read with its `instance` reads the lines.
 */
export const KeptLogInfoSchema = z.object({
  /** When it was kept (epoch ms): just after the version that showed the end. */
  time: z.number(),
  container: z.string(),
  /** The instance's log file number on the node. */
  instance: z.number().int().min(0),
  /** restarted: a newer instance runs; ended: the container's current state is terminated. */
  ended: z.enum(['restarted', 'ended']),
  reason: z.string().optional(),
  exitCode: z.number().int().optional(),
  finishedAt: z.string().optional(),
  /** Log lines (CRI records) kept. */
  lines: z.number().int().min(0),
  /** The instance's log held more before the lines kept. */
  truncated: z.boolean(),
  /** Why nothing was kept (the file was gone, not readable). */
  missing: z.string().optional(),
});
export type KeptLogInfo = z.infer<typeof KeptLogInfoSchema>;

export const PodHistorySchema = z.object({
  /** Oldest first; the last is the pod as it is now (or as it was deleted). */
  versions: z.array(PodVersionInfoSchema),
  /** Earlier versions dropped to stay within the limits: the timeline starts later than the pod. */
  trimmed: z.number().int().min(0),
  /** Of those, how many went for the app's memory budget (the memoryBudget setting); absent when none. */
  trimmedForBudget: z.number().int().min(1).optional(),
  /** The pod is gone from the source; its history is kept for the retention time. */
  deleted: z.boolean(),
  limits: HistoryLimitsSchema,
  /** The ends of ended instances' logs kept, oldest first; absent when none. */
  crashLogs: z.array(KeptLogInfoSchema).optional(),
});
export type PodHistoryView = z.infer<typeof PodHistorySchema>;

export const PodUidSchema = NodeIdSchema.extend({ uid: z.string().min(1, 'uid is required') });
export const PodVersionRequestSchema = PodUidSchema.extend({ version: z.number().int().min(1) });
