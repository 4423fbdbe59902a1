import { z } from 'zod';

/**
 * The compact row the pods table shows: small enough to send thousands per second, derived from a
 * decoded pod by podRowFromTree. The full pod stays in the app core and is fetched with pods.get.
 */
export const PodRowSchema = z.object({
  uid: z.string().min(1),
  namespace: z.string(),
  name: z.string(),
  /** status.phase, '' when absent. */
  phase: z.string(),
  /** kubectl's STATUS column: CrashLoopBackOff, Completed, Terminating, Init:0/1 or the phase. */
  status: z.string(),
  /** Ready containers / all regular containers (kubectl's READY n/m). */
  ready: z.number().int().min(0),
  total: z.number().int().min(0),
  restarts: z.number().int().min(0),
  /** metadata.creationTimestamp as RFC 3339, or null. */
  createdAt: z.string().nullable(),
  podIP: z.string(),
  node: z.string(),
  /** Kind and name of the controller owner ('' when none). */
  ownerKind: z.string(),
  ownerName: z.string(),
  /** A static pod: defined by a file on the node (its mirror pod carries kubernetes.io/config.mirror). */
  isStatic: z.boolean(),
  labels: z.record(z.string(), z.string()),
  /** metadata.deletionTimestamp is set. */
  deleting: z.boolean(),
});
export type PodRow = z.infer<typeof PodRowSchema>;

/**
 * A batch of pod changes for one node. seq grows by one per batch per node; pods.rows returns the
 * seq its snapshot reflects, so a late subscriber drops batches it already has. reset means: the
 * node's set is exactly `upserts` now (after a relist or a mask change).
 */
export const PodDeltasSchema = z.object({
  nodeId: z.string().min(1),
  seq: z.number().int().min(0),
  reset: z.boolean(),
  upserts: z.array(PodRowSchema),
  removals: z.array(z.string()),
});
export type PodDeltas = z.infer<typeof PodDeltasSchema>;

export const PodRowsSnapshotSchema = z.object({
  seq: z.number().int().min(0),
  rows: z.array(PodRowSchema),
});
export type PodRowsSnapshot = z.infer<typeof PodRowsSnapshotSchema>;

/** One line of the live events feed. */
export const FeedLineSchema = z.object({
  /** Epoch ms. */
  time: z.number(),
  nodeId: z.string(),
  type: z.enum(['ADDED', 'MODIFIED', 'DELETED', 'RELIST', 'ERROR']),
  namespace: z.string(),
  name: z.string(),
  uid: z.string(),
  /** What changed, in one line: "phase Pending → Running", "container app restarted (3)". */
  change: z.string(),
});
export type FeedLine = z.infer<typeof FeedLineSchema>;

/** A node's feed lines of one frame, for the windows that watch the node (pods.watch). */
export const WatchEventsSchema = z.object({ nodeId: z.string().min(1), lines: z.array(FeedLineSchema) });
export type WatchEvents = z.infer<typeof WatchEventsSchema>;

/** What a node's pods.watch sends, each as it is made: its pod batches and the lines of its events feed. */
export const PodWatchItemSchema = z.union([PodDeltasSchema, WatchEventsSchema]);
export type PodWatchItem = z.infer<typeof PodWatchItemSchema>;

/** A field the decoder did not know, shown with its numbers (a newer kubelet sent it). */
export const UnknownFieldViewSchema = z.object({
  path: z.string(),
  fieldNumber: z.number().int(),
  wireType: z.number().int(),
  /** The raw payload as lowercase hex. */
  rawHex: z.string(),
});
export type UnknownFieldView = z.infer<typeof UnknownFieldViewSchema>;

const TimeSchema = z.string().nullable().optional();

export const ContainerStateViewSchema = z.object({
  kind: z.enum(['running', 'waiting', 'terminated', 'unknown']),
  reason: z.string().optional(),
  message: z.string().optional(),
  startedAt: TimeSchema,
  finishedAt: TimeSchema,
  exitCode: z.number().int().optional(),
  signal: z.number().int().optional(),
});
export type ContainerStateView = z.infer<typeof ContainerStateViewSchema>;

export const ContainerViewSchema = z.object({
  /** sidecar = an init container with restartPolicy Always. */
  kind: z.enum(['init', 'sidecar', 'regular', 'ephemeral']),
  name: z.string(),
  image: z.string(),
  imageID: z.string().optional(),
  state: ContainerStateViewSchema,
  /** The previous run's end: exit code, reason and times. */
  lastTermination: ContainerStateViewSchema.optional(),
  ready: z.boolean(),
  started: z.boolean().optional(),
  restarts: z.number().int(),
  /** "liveness: http GET :8080/healthz every 10s", one per probe. */
  probes: z.array(z.object({ kind: z.enum(['liveness', 'readiness', 'startup']), description: z.string() })),
  requests: z.record(z.string(), z.string()),
  limits: z.record(z.string(), z.string()),
  ports: z.array(z.string()),
});
export type ContainerView = z.infer<typeof ContainerViewSchema>;

export const PodSummarySchema = z.object({
  namespace: z.string(),
  name: z.string(),
  uid: z.string(),
  phase: z.string(),
  status: z.string(),
  node: z.string(),
  podIP: z.string(),
  hostIP: z.string(),
  qosClass: z.string(),
  serviceAccount: z.string(),
  restartPolicy: z.string(),
  priorityClassName: z.string(),
  createdAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  ownerKind: z.string(),
  ownerName: z.string(),
  isStatic: z.boolean(),
  labels: z.record(z.string(), z.string()),
  annotations: z.record(z.string(), z.string()),
  conditions: z.array(
    z.object({
      type: z.string(),
      status: z.string(),
      reason: z.string().optional(),
      message: z.string().optional(),
      lastTransitionTime: TimeSchema,
    }),
  ),
  containers: z.array(ContainerViewSchema),
  /** "name: kind detail", e.g. config: configMap coredns. */
  volumes: z.array(z.object({ name: z.string(), kind: z.string(), detail: z.string() })),
});
export type PodSummary = z.infer<typeof PodSummarySchema>;

export const PodDetailSchema = z.object({
  /** kubectl get pod -o json text (4-space indent, trailing newline). */
  json: z.string(),
  summary: PodSummarySchema,
  /** Summary values (SUMMARY_FIELD_SOURCES keys) the node's field mask left out: shown as not selected. */
  notSelected: z.array(z.string()),
  unknownFields: z.array(UnknownFieldViewSchema),
  /** Set when the pod is gone from its source: when it was deleted (epoch ms); shown as it was then. */
  deletedAt: z.number().optional(),
  /** Set when this is an earlier version (pods.version): when it arrived (epoch ms). */
  versionTime: z.number().optional(),
  /** Set when the pod was read from its node as it was opened (a rows-only node keeps no whole pods): when (epoch ms). */
  fetchedAt: z.number().optional(),
});
export type PodDetail = z.infer<typeof PodDetailSchema>;

/** 'list': a kubectl List as JSON; 'ndjson': one pod per line; 'yaml': the List as kubectl get pods -o yaml prints it. */
export const ExportFormatSchema = z.enum(['list', 'ndjson', 'yaml']);
export type ExportFormat = z.infer<typeof ExportFormatSchema>;
/** The file extension an export of each format is named with by default. */
export const EXPORT_EXTENSION: Record<ExportFormat, string> = { list: '.json', ndjson: '.ndjson', yaml: '.yaml' };

export const ExportRequestSchema = z.object({
  nodeId: z.string().min(1),
  /** 'all' exports the node's whole set; a list exports those pods (the filtered view). */
  uids: z.union([z.literal('all'), z.array(z.string().min(1)).min(1, 'Select at least one pod to export')]),
  format: ExportFormatSchema,
  /**
   * Absolute file path, browser mode only; omitted = ask with the host's save dialog (Electron,
   * where a path from the page is refused: only the dialog names files).
   */
  path: z.string().trim().startsWith('/', 'Give an absolute file path, e.g. /tmp/pods.json').optional(),
  /** The user agreed to replace the file at path if it exists; otherwise an existing file is an error ('file-exists'). */
  replace: z.boolean().default(false),
});
export type ExportRequest = z.infer<typeof ExportRequestSchema>;

export const ExportResultSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('saved'),
    path: z.string(),
    count: z.number().int(),
    bytes: z.number().int(),
    /** What the user should know about the file, e.g. YAML kubectl itself would have refused to print. */
    warning: z.string().optional(),
  }),
  z.object({ status: z.literal('cancelled') }),
]);
export type ExportResult = z.infer<typeof ExportResultSchema>;
