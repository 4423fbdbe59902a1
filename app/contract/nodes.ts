import { z } from 'zod';

const PORT_RANGE = 'The port must be a whole number from 1 to 65535';

/** How to reach a node: what the add-node dialog collects. Unset fields fall back to ~/.ssh/config. */
export const NodeSpecSchema = z.object({
  /** Shown in the sidebar; defaults to the host. */
  label: z.string().trim().max(200).optional(),
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
  socketPath: z
    .string()
    .trim()
    .startsWith('/', 'The socket path must be absolute, e.g. /var/lib/kubelet/pods-api/pods-api.sock')
    .optional(),
  /** Reach the socket through `sudo -n socat` when the SSH user cannot open it directly. */
  sudo: z.boolean().optional(),
});
export type NodeSpec = z.infer<typeof NodeSpecSchema>;

/** What the node is waiting for from the user. */
export const WaitingForSchema = z.enum(['hostKey', 'passphrase', 'password', 'keyboardInteractive']);

/** A node's connection lifecycle, one variant per thing the sidebar shows. Times are epoch ms. */
export const NodeStateSchema = z.discriminatedUnion('phase', [
  z.object({ phase: z.literal('disconnected') }),
  z.object({ phase: z.literal('connecting'), attempt: z.number().int().min(1) }),
  z.object({ phase: z.literal('waitingForUser'), waitingFor: WaitingForSchema, promptId: z.string() }),
  /** SSH is up but the kubelet's socket is not answering yet (kubelet starting). */
  z.object({ phase: z.literal('kubeletInitializing'), detail: z.string().optional() }),
  z.object({ phase: z.literal('live'), since: z.number() }),
  z.object({
    phase: z.literal('reconnecting'),
    attempt: z.number().int().min(1),
    /** When the next attempt starts, for the countdown. */
    retryAt: z.number(),
    cause: z.string(),
  }),
  z.object({ phase: z.literal('error'), cause: z.string(), nextStep: z.string() }),
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
