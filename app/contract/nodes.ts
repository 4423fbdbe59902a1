import { z } from 'zod';

const PORT_RANGE = 'The port must be a whole number from 1 to 65535';

const LabelSchema = z.string().trim().max(200).optional();
const SocketPathSchema = z
  .string()
  .trim()
  .startsWith('/', 'The socket path must be absolute, e.g. /var/lib/kubelet/pods-api/pods-api.sock');

/** How to reach a node over SSH: what the add-node dialog collects. Unset fields fall back to ~/.ssh/config. */
export const SshNodeSpecSchema = z.object({
  kind: z.literal('ssh'),
  /** Shown in the sidebar; defaults to the host. */
  label: LabelSchema,
  /** A Host alias from ~/.ssh/config or a host name / address. */
  host: z
    .string()
    .trim()
    .min(1, 'Enter a host name, an address or an SSH config alias')
    // ssh would read a leading '-' as an option; blanks cannot be part of a host name.
    .regex(/^[^-\s][^\s]*$/, 'A host name or SSH config alias has no spaces and does not start with "-"'),
  port: z
    .number({ error: PORT_RANGE })
    .int(PORT_RANGE)
    .min(1, PORT_RANGE)
    .max(65535, PORT_RANGE)
    .optional(),
  user: z.string().trim().min(1).optional(),
  identityFile: z.string().trim().min(1).optional(),
  /** ProxyJump form: [user@]host[:port], comma-separated for several hops. */
  jumpHost: z.string().trim().min(1).optional(),
  /** The kubelet's Pods API socket on the node. */
  socketPath: SocketPathSchema.optional(),
  /** Reach the socket through `sudo -n socat` when the SSH user cannot open it directly. */
  sudo: z.boolean().optional(),
});
export type SshNodeSpec = z.infer<typeof SshNodeSpecSchema>;

/** A Pods API socket on this machine (the CLI's unix:PATH): the simulator, or Nodescope run on the node. */
export const UnixNodeSpecSchema = z.object({ kind: z.literal('unix'), label: LabelSchema, socketPath: SocketPathSchema });

/** The simulated kubelet inside Nodescope. */
export const DemoNodeSpecSchema = z.object({ kind: z.literal('demo'), label: LabelSchema });

/** A file read once: a snapshot (read-only, offline) or a recording (offline, with a time axis). */
const fileSpec = <K extends 'snapshot' | 'recording'>(kind: K) =>
  z.object({
    kind: z.literal(kind),
    label: LabelSchema,
    /** Where it was read from: a path on this machine, or the name of an uploaded file. */
    file: z.string().min(1),
  });
export const SnapshotSpecSchema = fileSpec('snapshot');
export const RecordingSpecSchema = fileSpec('recording');

/** Entries written before sources had kinds (nodes.json version 1, the contract's first callers) are SSH nodes. */
function sshWhenKindless(value: unknown): unknown {
  return value && typeof value === 'object' && !Array.isArray(value) && !('kind' in value) ? { ...value, kind: 'ssh' } : value;
}

type WithoutKind<T> = T extends { kind: 'ssh' } ? Omit<T, 'kind'> & { kind?: 'ssh' } : T;
/** A discriminated union by kind that also takes a kindless object as an SSH node. */
const kindedOrSsh = <S extends z.ZodType>(union: S) =>
  z.preprocess(sshWhenKindless, union) as unknown as z.ZodType<z.output<S>, WithoutKind<z.input<S>>>;

/** Where a source's pods come from, by kind. Live kinds can change; file kinds are offline. */
export const NodeSpecSchema = kindedOrSsh(
  z.discriminatedUnion('kind', [SshNodeSpecSchema, UnixNodeSpecSchema, DemoNodeSpecSchema, SnapshotSpecSchema, RecordingSpecSchema]),
);
export type NodeSpec = z.output<typeof NodeSpecSchema>;

/** What nodes.add takes: a node to watch (a file is opened with sources.open, the demo started with nodes.startDemo). */
export const AddNodeSpecSchema = kindedOrSsh(z.discriminatedUnion('kind', [SshNodeSpecSchema, UnixNodeSpecSchema]));
export type AddNodeSpec = z.output<typeof AddNodeSpecSchema>;
export type AddNodeSpecInput = z.input<typeof AddNodeSpecSchema>;

/** The kinds of source that are offline: files, never "Live". */
export const isOfflineKind = (kind: NodeSpec['kind']): kind is 'snapshot' | 'recording' => kind === 'snapshot' || kind === 'recording';

/** What the node is waiting for from the user. */
export const WaitingForSchema = z.enum(['hostKey', 'passphrase', 'password', 'keyboardInteractive']);

/** A node's connection lifecycle, one variant per thing the sidebar shows. Times are epoch ms. */
export const NodeStateSchema = z.discriminatedUnion('phase', [
  z.object({ phase: z.literal('disconnected') }),
  /** `podsReceived`: while a big node sends its pods the first time, how many arrived so far. */
  z.object({ phase: z.literal('connecting'), attempt: z.number().int().min(1), podsReceived: z.number().int().min(0).optional() }),
  z.object({ phase: z.literal('waitingForUser'), waitingFor: WaitingForSchema, promptId: z.string() }),
  /** SSH is up but the kubelet's socket is not answering yet (kubelet starting). */
  z.object({ phase: z.literal('kubeletInitializing'), detail: z.string().optional() }),
  z.object({
    phase: z.literal('live'),
    since: z.number(),
    /** Pods the kubelet sent that are not shown (do not decode, no uid, a uid another pod has), one line each. */
    leftOut: z.array(z.string()).optional(),
  }),
  /**
   * The kubelet dropped the watch (it fell behind the kubelet's buffer): the pods shown are its list of
   * `listedAt`, without the changes since; watching again at `retryAt`.
   */
  z.object({
    phase: z.literal('catchingUp'),
    listedAt: z.number(),
    retryAt: z.number(),
    attempt: z.number().int().min(1),
    cause: z.string(),
    leftOut: z.array(z.string()).optional(),
  }),
  z.object({
    phase: z.literal('reconnecting'),
    attempt: z.number().int().min(1),
    /** When the next attempt starts, for the countdown. */
    retryAt: z.number(),
    cause: z.string(),
  }),
  z.object({ phase: z.literal('error'), cause: z.string(), nextStep: z.string() }),
  /**
   * A file's pods, never live: when they were taken (epoch ms, null when the file does not say) and
   * where from (node name, file name). A recording also has its time axis and the instant shown.
   */
  z.object({
    phase: z.literal('offline'),
    takenAt: z.number().nullable(),
    origin: z.string(),
    timeline: z.object({ start: z.number(), end: z.number(), at: z.number() }).optional(),
  }),
]);
export type NodeState = z.infer<typeof NodeStateSchema>;

export const NodeInfoSchema = z.object({
  id: z.string().min(1),
  label: z.string(),
  /** The demo node: a simulated kubelet, labelled as such everywhere. */
  simulated: z.boolean(),
  spec: NodeSpecSchema,
  state: NodeStateSchema,
  /** The field mask applied to list and watch; '' when none. */
  mask: z.string(),
  podCount: z.number().int().min(0),
  /** Earlier versions were dropped from this source's pod history to stay within its bounds. */
  historyTrimmed: z.boolean().optional(),
  /** A recording of this node's watch is being written to this file. */
  recordingTo: z.string().optional(),
});
export type NodeInfo = z.infer<typeof NodeInfoSchema>;

/** One Host block of ~/.ssh/config, resolved, for the host picker. */
export const SshHostSchema = z.object({
  alias: z.string(),
  hostName: z.string().optional(),
  user: z.string().optional(),
  port: z.number().int().optional(),
  identityFile: z.string().optional(),
  proxyJump: z.string().optional(),
});
export type SshHost = z.infer<typeof SshHostSchema>;

export const NodeIdSchema = z.object({ nodeId: z.string().min(1, 'nodeId is required') });
