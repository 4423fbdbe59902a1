import { z } from 'zod';
import { PodRowSchema } from './pods';

/**
 * Source against source, run in the app core as a job (jobs.ts; the UI never holds two whole pod sets):
 * diff.run (its progress, then the first page) → diff.result pages as the user scrolls → diff.pods for
 * one pair's JSON on drill-down → diff.forget. Payloads stay bounded: a page of entries, each a table row
 * and its first change lines.
 */

/** At most this many entries per diff.result page (the browser bridge carries 1 MiB per frame). */
export const DIFF_PAGE_MAX = 500;
/** At most this many path-summary lines per pod in a result; the rest are counted, and drill-down shows all. */
export const DIFF_LINES_MAX = 12;

export const NoiseSettingsSchema = z.object({
  /** Apply the default noise rules (managed fields, resource version, and for two pods UIDs, names, IPs, times). */
  defaults: z.boolean(),
  /** Default rule ids switched off. */
  disabled: z.array(z.string().max(100)).max(50).optional(),
  /** Rules for two different pods switched on for a pod against itself too. */
  enabled: z.array(z.string().max(100)).max(50).optional(),
  /** The user's own paths to ignore (the CLI's --ignore). */
  extra: z.array(z.string().max(1000)).max(100).optional(),
});

/** One side: a source, and for a recording the instant (epoch ms, clamped to its time axis; default: the one shown). */
export const DiffSideSchema = z.object({ nodeId: z.string().min(1), at: z.number().optional() });

export const DiffStartSchema = z.object({ left: DiffSideSchema, right: DiffSideSchema, noise: NoiseSettingsSchema.optional() });

export const DiffJobIdSchema = z.object({ jobId: z.string().min(1).max(100) });

export const DiffSideInfoSchema = z.object({
  nodeId: z.string(),
  label: z.string(),
  /** The recording's instant compared, when the side is a recording. */
  at: z.number().optional(),
  /** The side's field mask ('' for whole pods): fields it left out compare as absent. */
  mask: z.string(),
  podCount: z.number().int().min(0),
});
export type DiffSideInfo = z.infer<typeof DiffSideInfoSchema>;

export const DiffEntrySchema = z.object({
  change: z.enum(['added', 'removed', 'changed']),
  /** The pod's UID on each side (absent on the side it is missing from): the key for diff.pods. */
  leftUid: z.string().optional(),
  rightUid: z.string().optional(),
  /** How the two were paired when the pod is on both sides. */
  matchedBy: z.enum(['uid', 'mirror', 'name']).optional(),
  /** The right side's row (the left's for a removed pod), for the filter language and grouping. */
  row: PodRowSchema,
  /** The path summary's first lines ("spec.containers[name=app].image: "a" → "b""). */
  changes: z.array(z.string()).max(DIFF_LINES_MAX),
  /** Lines beyond those. */
  moreChanges: z.number().int().min(0),
});
export type DiffEntry = z.infer<typeof DiffEntrySchema>;

export const DiffCountsSchema = z.object({
  added: z.number().int().min(0),
  removed: z.number().int().min(0),
  changed: z.number().int().min(0),
  unchanged: z.number().int().min(0),
});

export const DiffResultRequestSchema = DiffJobIdSchema.extend({
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(DIFF_PAGE_MAX).default(DIFF_PAGE_MAX),
});

export const DiffResultSchema = z.object({
  /** The finished comparison, for its further pages and pairs (diff.result, diff.pods) until diff.forget. */
  jobId: z.string(),
  left: DiffSideInfoSchema,
  right: DiffSideInfoSchema,
  counts: DiffCountsSchema,
  /** Entries of pods that differ, ordered by namespace and name: this page of them, and how many in all. */
  entries: z.array(DiffEntrySchema).max(DIFF_PAGE_MAX),
  offset: z.number().int().min(0),
  total: z.number().int().min(0),
});
export type DiffResult = z.infer<typeof DiffResultSchema>;

export const DiffPodsRequestSchema = DiffJobIdSchema.extend({ leftUid: z.string().min(1).optional(), rightUid: z.string().min(1).optional() });

const DiffPodSideSchema = z.object({ label: z.string(), json: z.string() }).nullable();
/** One pair of a comparison as it was compared (not as the pods are now), for the per-pod view. */
export const DiffPodsSchema = z.object({ left: DiffPodSideSchema, right: DiffPodSideSchema, differentPods: z.boolean() });
