import { z } from 'zod';

const PORT_RANGE = 'The port must be a whole number from 1 to 65535';

const LabelSchema = z.string().trim().max(200).optional();
/** A named group the user keeps nodes in (the sidebar shows nodes group by group); absent: no group. */
const GroupSchema = z.string().trim().min(1, 'A group name cannot be empty').max(100).optional();
const SocketPathSchema = z
  .string()
  .trim()
  .startsWith('/', 'The socket path must be absolute, e.g. /var/lib/kubelet/pods-api/pods-api.sock');

/** A credential file: a path on this machine, or `node:PATH` for a file on the node read there with `sudo -n cat`. */
const CredentialPathSchema = z
  .string()
  .trim()
  .refine((v) => /^(node:)?\//.test(v), 'Give an absolute path on this machine, or node:/path for a file on the node');

/**
 * How the kubelet's REST API is reached when a node is read through it. Credentials are files, named
 * here by path: their contents are read when connecting and never stored or sent to the UI.
 */
export const RestOptionsSchema = z
  .object({
    /** The kubelet's port on the node's loopback; default 10250, or 10255 with readOnly. */
    port: z.number({ error: PORT_RANGE }).int(PORT_RANGE).min(1, PORT_RANGE).max(65535, PORT_RANGE).optional(),
    /** The read-only port: plain HTTP, no credentials. */
    readOnly: z.boolean().optional(),
    tokenFile: CredentialPathSchema.optional(),
    clientCert: CredentialPathSchema.optional(),
    clientKey: CredentialPathSchema.optional(),
    /** The CA (PEM, on this machine) that signs the serving certificate; without it the certificate is pinned on first use. */
    caFile: z.string().trim().startsWith('/', 'Give the CA file as an absolute path').optional(),
    /** How often /pods is polled, in seconds (default 2). */
    pollIntervalS: z.number().min(0.2, 'Poll at most 5 times a second').max(3600).optional(),
  })
  .refine((r) => !(r.tokenFile && (r.clientCert || r.clientKey)), 'Give a token file or a client certificate and key, not both')
  .refine((r) => !r.clientCert === !r.clientKey, 'A client certificate needs its key file, and a key its certificate')
  .refine((r) => !(r.readOnly && (r.tokenFile || r.clientCert)), 'The read-only port takes no credentials');
export type RestOptions = z.infer<typeof RestOptionsSchema>;

/** Which kubelet API a node is read from: the Pods API socket, the REST API, or the socket when there is one, else REST. */
export const ApiChoiceSchema = z.enum(['auto', 'pods', 'rest']);
export type ApiChoice = z.infer<typeof ApiChoiceSchema>;

/** The API a live node is actually read from (NodeInfo.readFrom). */
export const ReadFromSchema = z.enum(['shipped', 'documented', 'rest']);
export type ReadFrom = z.infer<typeof ReadFromSchema>;

/**
 * Which SSH client reaches a node: the user's own OpenSSH (`ssh`, with every ssh_config setting, ProxyCommand,
 * certificates and ControlMaster) or Nodescope's built-in one (ssh2; refuses what it cannot honour).
 */
export const SshTransportChoiceSchema = z.enum(['openssh', 'builtin']);
export type SshTransportChoice = z.infer<typeof SshTransportChoiceSchema>;

/** How to reach a node over SSH: what the add-node dialog collects. Unset fields fall back to ~/.ssh/config. */
export const SshNodeSpecSchema = z.object({
  kind: z.literal('ssh'),
  /** Shown in the sidebar; defaults to the host. */
  label: LabelSchema,
  group: GroupSchema,
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
  /** Absent: the Pods API, as before nodes could be read through REST. */
  api: ApiChoiceSchema.optional(),
  rest: RestOptionsSchema.optional(),
  /** The SSH client; absent: the user's ssh when it is on PATH, else the built-in one. */
  ssh: SshTransportChoiceSchema.optional(),
  /** Read devices, exclusive CPUs and memory from the PodResources API on this socket (root-only: sudo as for the Pods API). */
  podResourcesSocket: SocketPathSchema.optional(),
});
export type SshNodeSpec = z.infer<typeof SshNodeSpecSchema>;

/** A Pods API socket on this machine (the CLI's unix:PATH): the simulator, or Nodescope run on the node. */
export const UnixNodeSpecSchema = z.object({ kind: z.literal('unix'), label: LabelSchema, group: GroupSchema, socketPath: SocketPathSchema });

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

/** What the node is waiting for from the user. */
export const WaitingForSchema = z.enum(['hostKey', 'kubeletCertificate', 'passphrase', 'password', 'keyboardInteractive']);

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
   * Was live, but the node has not answered since `silentSince` (SSH keepalives unanswered: a hung sshd, a cut
   * link): the pods shown are as of then and may be stale. Live again when it answers; reconnecting when the
   * keepalives give up (ServerAliveCountMax of them unanswered).
   */
  z.object({
    phase: z.literal('silent'),
    since: z.number(),
    silentSince: z.number(),
    leftOut: z.array(z.string()).optional(),
  }),
  /** The pods shown are the kubelet's list of `listedAt`, not yet brought up to date by a watch: */
  z.discriminatedUnion('watch', [
    /** the watch is catching up on them, `behind` events from them being current (WatchState 'listed'); */
    z.object({
      phase: z.literal('catchingUp'),
      watch: z.literal('replaying'),
      listedAt: z.number(),
      attempt: z.number().int().min(1),
      behind: z.number().int().min(0),
      leftOut: z.array(z.string()).optional(),
    }),
    /** or the kubelet dropped the watch (it fell behind the kubelet's buffer): watching again at `retryAt`. */
    z.object({
      phase: z.literal('catchingUp'),
      watch: z.literal('dropped'),
      listedAt: z.number(),
      retryAt: z.number(),
      attempt: z.number().int().min(1),
      cause: z.string(),
      leftOut: z.array(z.string()).optional(),
    }),
  ]),
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
    /** Pods of the file that are not shown (no uid, a uid another pod has), one line each. */
    leftOut: z.array(z.string()).optional(),
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
  /** Its canonical paths (presets expanded); [] when none. What the UI marks as not selected. */
  maskPaths: z.array(z.string()),
  /**
   * Whether the kubelet applied the mask itself (the documented shape does, the shipped one ignores
   * it); null until pods arrived with a mask. The pods are the same either way: it is applied here too.
   */
  maskHonoured: z.boolean().nullable(),
  podCount: z.number().int().min(0),
  /** Earlier versions were dropped from this source's pod history to stay within its bounds. */
  historyTrimmed: z.boolean().optional(),
  /** A recording of this node's watch is being written to this file. */
  recordingTo: z.string().optional(),
  /** The kubelet API the node is read from, once connected. */
  readFrom: ReadFromSchema.optional(),
  /** The SSH client the node is reached with, once its connection is being made. */
  sshClient: SshTransportChoiceSchema.optional(),
  /**
   * The connection keeps each pod's row and digest, not the pod (more nodes are open than the rows-only
   * threshold): a pod's whole object is read from the node when it is opened, and no history is kept.
   */
  rowsOnly: z.boolean().optional(),
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
  /** How many of the other hosts listed reach their node through this one (ProxyJump): a bastion, not a node. */
  jumpHostFor: z.number().int().min(1).optional(),
});
export type SshHost = z.infer<typeof SshHostSchema>;

/** The hosts a pasted or uploaded host list names, ssh_config patterns expanded; lines that name none, with why. */
export const HostListExpansionSchema = z.object({
  hosts: z.array(z.string()),
  problems: z.array(z.object({ line: z.number().int().min(1), text: z.string(), reason: z.string() })),
});
export type HostListExpansion = z.infer<typeof HostListExpansionSchema>;

/** How many nodes one nodes.addMany takes: a fleet view of a thousand is past what the sidebar is for. */
export const MAX_NODES_AT_ONCE = 1000;

export const NodeIdSchema = z.object({ nodeId: z.string().min(1, 'nodeId is required') });
