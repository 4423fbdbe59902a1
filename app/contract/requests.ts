import { z } from 'zod';
import { DiffJobIdSchema, DiffPodsRequestSchema, DiffPodsSchema, DiffResultRequestSchema, DiffResultSchema, DiffStartSchema } from './diff';
import { JobProgressSchema } from './jobs';
import { HistoryLimitsSchema, PodHistorySchema, PodUidSchema, PodVersionRequestSchema } from './history';
import { AddNodeSpecSchema, HostListExpansionSchema, MAX_NODES_AT_ONCE, NodeIdSchema, NodeInfoSchema, SshHostSchema } from './nodes';
import { NodeMetricsSchema } from './node-metrics';
import { JournalFollowEndSchema, JournalFollowProgressSchema, JournalFollowRequestSchema, NodeContextReadSchema } from './node-context';
import {
  ExportRequestSchema,
  ExportResultSchema,
  PodWatchItemSchema,
  PodDetailSchema,
  PodRowsSnapshotSchema,
} from './pods';
import { MatrixRequestSchema, WorkloadMatrixSchema } from './fleet';
import { LogFollowEndSchema, LogFollowProgressSchema, LogReadSchema, LogRequestSchema } from './logs';
import { NoticeSchema } from './notices';
import { PromptAnswerSchema, PromptSchema } from './prompts';
import { MemoryUsageSchema, SettingsChangeSchema, SettingsSchema } from './settings';
import { PodFieldColumnRequestSchema, PodFieldColumnSchema, PodFieldsRequestSchema, PodFieldsSchema, TableViewsSchema } from './table-views';

const NoInput = z.object({}).strict();
const Done = z.object({}).strict();

export const MaskCheckSchema = z.discriminatedUnion('ok', [
  /** The normalized paths the mask keeps. */
  z.object({ ok: z.literal(true), paths: z.array(z.string()) }),
  /** position: 0-based character offset of the problem in the text, when known. */
  z.object({ ok: z.literal(false), error: z.string(), position: z.number().int().optional() }),
]);
export type MaskCheck = z.infer<typeof MaskCheckSchema>;

export const MaskPresetSchema = z.object({
  name: z.string(),
  /** Canonical mask paths. */
  paths: z.array(z.string()),
  description: z.string(),
  builtIn: z.boolean(),
});

const MaskTextSchema = z.string().max(10_000);

/** A mask applied to the node's pods without applying it to the node: for the builder's preview. */
export const MaskPreviewSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    /** One pod of the node through the mask, as a masked export prints it; null when the node has no pods. */
    sample: z.object({ namespace: z.string(), name: z.string(), json: z.string() }).nullable(),
    pods: z.number().int(),
    /** kubectl JSON (compact) of the whole pod set, without and with the mask. */
    fullBytes: z.number().int(),
    maskedBytes: z.number().int(),
    /** Values (scalars, null times) in the whole pod set, and how many the mask keeps. */
    fullFields: z.number().int(),
    maskedFields: z.number().int(),
    /** The mask the node's pods were fetched with ('' for whole pods): a preview cannot show more than that. */
    fetchedWith: z.string(),
  }),
  z.object({ ok: z.literal(false), error: z.string(), position: z.number().int().optional() }),
]);
export type MaskPreview = z.infer<typeof MaskPreviewSchema>;

/**
 * Every request the UI can make of the app core: name → input and output schemas. The host
 * validates inputs with validateRequest before any handler runs; no other call crosses the bridge.
 */
export const requests = {
  /** Version and host capabilities, so the UI knows whether a native save dialog exists. */
  'app.info': {
    input: NoInput,
    output: z.object({
      version: z.string(),
      mode: z.enum(['electron', 'browser']),
      /** pods.export may omit path: the host shows a save dialog. */
      canPickFiles: z.boolean(),
      /** Where exports go by default (the user's Downloads or home). */
      defaultExportDir: z.string(),
      /** sources.open may omit path: the host shows an open dialog (Electron). Otherwise files are uploaded. */
      canOpenFiles: z.boolean(),
      /** The ssh_config the app reads (its --ssh-config file, or ~/.ssh/config), as the user would name it. */
      sshConfigFile: z.string(),
    }),
  },
  'nodes.list': { input: NoInput, output: z.array(NodeInfoSchema) },
  /** Adds and starts connecting: an SSH node (an object without kind is one) or a local socket. */
  'nodes.add': { input: AddNodeSpecSchema, output: NodeInfoSchema },
  /** Adds several nodes in one step (a host pattern, a pasted list, a file), saved once, connecting concurrently. */
  'nodes.addMany': {
    input: z.object({ nodes: z.array(AddNodeSpecSchema).min(1, 'Give at least one host').max(MAX_NODES_AT_ONCE, `At most ${MAX_NODES_AT_ONCE} nodes at once`) }),
    output: z.array(NodeInfoSchema),
  },
  /** Puts nodes in a named group, or out of any with no group; remembered with the nodes. */
  'nodes.setGroup': {
    input: z.object({ nodeIds: z.array(z.string().min(1)).min(1), group: z.string().trim().max(100).optional() }),
    output: Done,
  },
  /**
   * Changes a node's connection settings in place and reconnects it: same id, mask and place in the list.
   * Its pod history stays when it is the same machine (same kind, SSH host and port); historyCleared says
   * when it was another one's and was cleared. A refused edit changes nothing.
   */
  'nodes.update': {
    input: NodeIdSchema.extend({ spec: AddNodeSpecSchema }),
    output: z.object({ node: NodeInfoSchema, historyCleared: z.boolean() }),
  },
  'nodes.remove': { input: NodeIdSchema, output: Done },
  'nodes.connect': { input: NodeIdSchema, output: Done },
  'nodes.disconnect': { input: NodeIdSchema, output: Done },
  /** Starts the simulated demo node (or returns it when it runs already). */
  'nodes.startDemo': { input: NoInput, output: NodeInfoSchema },
  /** Sets the field mask applied to the node's list and watch; '' clears it. Remembered with the node (not the demo's). */
  'nodes.setMask': {
    input: NodeIdSchema.extend({ mask: z.string().max(10_000) }),
    output: MaskCheckSchema,
  },
  /** The node's latest metrics (CPU, memory, probes, devices, runtime against kubelet); null when none yet. Later ones come as nodeMetrics events. */
  'nodes.metrics': { input: NodeIdSchema, output: NodeMetricsSchema.nullable() },
  /** The node's context around its pods, read now through its live source (node-context.ts): what `nodescope node -o json` prints. */
  'node.info': { input: NodeIdSchema, output: NodeContextReadSchema },
  /** A subscription: the kubelet unit's journal, its last lines then each new one as progress (node-context.ts). */
  'node.journalFollow': { input: JournalFollowRequestSchema, output: JournalFollowEndSchema, progress: JournalFollowProgressSchema },
  'sshHosts.list': { input: NoInput, output: z.array(SshHostSchema) },
  /** A host list (one host per line, # comments) with ssh_config patterns (worker-*) expanded to the aliases they match. */
  'sshHosts.expand': { input: z.object({ text: z.string().max(1 << 20, 'The host list is over 1 MiB: split it') }), output: HostListExpansionSchema },
  /** The node's current rows; later pods.watch batches with seq ≤ the returned seq are already included. */
  'pods.rows': { input: NodeIdSchema, output: PodRowsSnapshotSchema },
  /**
   * A subscription (jobs.ts): the node's pod batches and its events-feed lines as they go out (a frame's
   * at most once per frame, the core batches them), to this window only, until it cancels (or goes away);
   * answered when the node is removed. Subscribe before pods.rows: the batches the rows include are told
   * apart by seq.
   */
  'pods.watch': { input: NodeIdSchema, output: Done, progress: PodWatchItemSchema },
  /** The pod as it is now; a deleted pod whose history is kept, as it was deleted (deletedAt set). */
  'pods.get': { input: PodUidSchema, output: PodDetailSchema },
  /** Values of any pod fields for these pods, for the table's columns of fields (table-views.ts). */
  'pods.fields': { input: PodFieldsRequestSchema, output: PodFieldsSchema },
  /** One pod field's values on every pod of the node, to sort the table by that field's column. */
  'pods.fieldColumn': { input: PodFieldColumnRequestSchema, output: PodFieldColumnSchema },
  /** The pod table's columns per table and the saved views, as last set (kept across restarts). */
  'ui.tableViews': { input: NoInput, output: TableViewsSchema },
  /** Replaces them all; answers them as saved. */
  'ui.setTableViews': { input: TableViewsSchema, output: TableViewsSchema },
  /** The pod's versions as a timeline, oldest first (a recording's up to the instant shown). */
  'pods.history': { input: PodUidSchema, output: PodHistorySchema },
  /** One version of the pod, shown as pods.get shows the current one (with the node's mask). */
  'pods.version': { input: PodVersionRequestSchema, output: PodDetailSchema },
  /**
   * The workload matrix of these sources (rows: workloads, columns: sources, drift marked), from the pods
   * as shown. A source that is neither live nor a file has an unknown column, never an empty one.
   */
  'fleet.matrix': { input: MatrixRequestSchema, output: WorkloadMatrixSchema },
  /**
   * A subscription (jobs.ts): the same matrix now, then again whenever one of the sources changed (at most
   * every 2 s), until the view cancels it; nothing while none changes.
   */
  'fleet.watchMatrix': { input: MatrixRequestSchema, output: Done, progress: WorkloadMatrixSchema },
  /** How much history every source keeps; setting it applies to all sources at once. */
  'history.limits': { input: NoInput, output: HistoryLimitsSchema },
  'history.setLimits': { input: HistoryLimitsSchema, output: HistoryLimitsSchema },
  /** The app's settings (settings.ts), each set or its default. */
  'settings.get': { input: NoInput, output: SettingsSchema },
  /** Changes the fields given, saves them and applies them at once; answers all settings as they are now. */
  'settings.set': { input: SettingsChangeSchema, output: SettingsSchema },
  /** What every source holds of pods now (current pods, earlier versions, kept crash logs), against the memory budget. */
  'memory.usage': { input: NoInput, output: MemoryUsageSchema },
  /**
   * Opens snapshot or recording files as offline sources. Without paths the host asks with its open
   * dialog (Electron); browser mode uploads files by POST to /upload instead (see ui-server).
   */
  'sources.open': {
    input: z.object({ paths: z.array(z.string().trim().startsWith('/', 'Give an absolute file path')).min(1).max(100).optional() }),
    output: z.discriminatedUnion('status', [
      z.object({ status: z.literal('opened'), nodes: z.array(NodeInfoSchema) }),
      z.object({ status: z.literal('cancelled') }),
    ]),
  },
  /** Shows a recording as it was at `at` (epoch ms, clamped to its time axis). */
  'sources.setTime': { input: NodeIdSchema.extend({ at: z.number() }), output: NodeInfoSchema },
  /**
   * Starts writing the node's watch to a new recording file (never over an existing one). Browser mode
   * takes a path; Electron refuses one and asks with its save dialog, so only the user names files.
   */
  'recording.start': {
    input: NodeIdSchema.extend({ path: z.string().trim().startsWith('/', 'Give an absolute file path, e.g. /tmp/node.recording').optional() }),
    output: z.discriminatedUnion('status', [
      z.object({ status: z.literal('recording'), path: z.string() }),
      z.object({ status: z.literal('cancelled') }),
    ]),
  },
  'recording.stop': { input: NodeIdSchema, output: z.object({ path: z.string(), events: z.number().int().min(0) }) },
  /** A job (jobs.ts): writes the pods to a file, pods written of all as progress; cancelled, it leaves no file. */
  'pods.export': { input: ExportRequestSchema, output: ExportResultSchema, progress: JobProgressSchema },
  /**
   * A job (jobs.ts): compares two sources' pods in the app core, in slices (never holding its thread for
   * long), pairs done as progress (a few times a second); answers the counts and the first page of the pods
   * that differ. Cancelling it stops the work.
   */
  'diff.run': { input: DiffStartSchema, output: DiffResultSchema, progress: JobProgressSchema },
  /** A further page of a finished comparison's pods that differ. */
  'diff.result': { input: DiffResultRequestSchema, output: DiffResultSchema },
  /** Forgets a finished comparison (its dialog closed); its window going forgets it too. */
  'diff.forget': { input: DiffJobIdSchema, output: Done },
  /** One pair of a finished comparison as kubectl JSON, for the per-pod view. */
  'diff.pods': { input: DiffPodsRequestSchema, output: DiffPodsSchema },
  /** Prompts still waiting for an answer (a reloaded window asks again). */
  'prompts.pending': { input: NoInput, output: z.array(PromptSchema) },
  'prompts.answer': {
    input: z.object({ promptId: z.string().min(1), answer: PromptAnswerSchema }),
    output: Done,
  },
  /** Checks a field mask as the user types, without applying it; `@NAME` names a preset. */
  'mask.validate': { input: z.object({ mask: MaskTextSchema }), output: MaskCheckSchema },
  /**
   * A job (jobs.ts): the node's pods through a mask (not applied), a sample pod and what the mask saves,
   * worked out in time slices with the pods done as progress. The mask builder cancels the preview it no
   * longer shows (the user typed on, or closed it).
   */
  'mask.preview': {
    input: NodeIdSchema.extend({ mask: MaskTextSchema, uid: z.string().min(1).optional() }),
    output: MaskPreviewSchema,
    progress: JobProgressSchema,
  },
  /** Built-in presets, then the user's saved ones. */
  'mask.presets': { input: NoInput, output: z.array(MaskPresetSchema) },
  /** Saves (or replaces) a preset of the user's; answers the presets as they are now. */
  'mask.savePreset': {
    input: z.object({ name: z.string().trim().min(1, 'Name the preset').max(40), mask: MaskTextSchema }),
    output: z.array(MaskPresetSchema),
  },
  'mask.deletePreset': { input: z.object({ name: z.string().min(1).max(40) }), output: z.array(MaskPresetSchema) },
  /** A pod container's last log lines, read from the node's files by its live source (logs.ts). */
  'logs.read': { input: LogRequestSchema, output: LogReadSchema },
  /**
   * A subscription: the same lines, then every new one, as its progress until its caller cancels it (the
   * reading on the node stops) or it ends by itself and answers why.
   */
  'logs.follow': { input: LogRequestSchema, output: LogFollowEndSchema, progress: LogFollowProgressSchema },
  /** The app's own problems not yet dismissed, oldest first (a window opened later shows them too). */
  'notices.list': { input: NoInput, output: z.array(NoticeSchema) },
  'notices.dismiss': { input: z.object({ id: z.string().min(1).max(100) }).strict(), output: Done },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType; progress?: z.ZodType }>;

export type Requests = typeof requests;
export type RequestName = keyof Requests;
/** What a caller passes (before defaults and trimming). */
export type RequestInput<N extends RequestName> = z.input<Requests[N]['input']>;
/** What a handler receives (after validation). */
export type ValidInput<N extends RequestName> = z.output<Requests[N]['input']>;
export type RequestOutput<N extends RequestName> = z.output<Requests[N]['output']>;
export const requestNames = Object.keys(requests) as RequestName[];
/**
 * What a job or subscription sends its caller before it answers (jobs.ts): the entry's `progress` schema;
 * never for a plain request.
 */
export type RequestProgress<N extends RequestName> = Requests[N] extends { progress: infer P extends z.ZodType } ? z.output<P> : never;
