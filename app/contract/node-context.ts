import { z } from 'zod';
import { KUBELET_UNITS } from '../node-info/kubelet-journal';
import { NodeIdSchema } from './nodes';

/**
 * The node's context around its pods (node.info): the same JSON `nodescope node -o json` prints
 * (app/node-info/node-context.ts, docs/node-info.md). Each part is read on its own: read, with where from,
 * or not read, with why and what to do. A value not read is left out, never given as zero or empty.
 */
const part = <T extends z.ZodTypeAny>(value: T) =>
  z.union([z.object({ from: z.string(), value }), z.object({ error: z.string(), nextStep: z.string().optional() })]);

const RuntimeContainerSchema = z.object({
  id: z.string(),
  name: z.string(),
  attempt: z.number().int().optional(),
  state: z.string().optional(),
  image: z.string().optional(),
  podSandboxId: z.string().optional(),
  podUid: z.string().optional(),
  podNamespace: z.string().optional(),
  podName: z.string().optional(),
});

const KubeletContainerSchema = z.object({
  id: z.string(),
  podUid: z.string(),
  podNamespace: z.string(),
  podName: z.string(),
  container: z.string(),
  previous: z.boolean(),
});

/** One line of the kubelet's journal (`journalctl -o short-iso`); time and the rest absent on journalctl's own notes. */
const JournalLineSchema = z.object({ time: z.string().optional(), host: z.string().optional(), identifier: z.string().optional(), pid: z.number().int().optional(), message: z.string() });

export const NodeContextSchema = z.object({
  process: part(
    z.object({
      pid: z.number().int(),
      binary: z.string(),
      configPath: z.string().optional(),
      runtimeEndpoint: z.string().optional(),
      featureGatesFlag: z.string().optional(),
    }),
  ),
  version: part(z.string()),
  health: part(z.object({ healthy: z.boolean(), status: z.number().int(), body: z.string() })),
  config: part(z.record(z.string(), z.unknown())),
  featureGates: part(
    z.object({
      gates: z.record(z.string(), z.boolean()),
      /** enabled absent: neither the gates nor the version tell. */
      podsApi: z.object({ enabled: z.boolean().optional(), why: z.string() }),
    }),
  ),
  runtime: part(
    z.object({
      name: z.string().optional(),
      version: z.string().optional(),
      apiVersion: z.string().optional(),
      crictlVersion: z.string().optional(),
      endpoint: z.string().optional(),
    }),
  ),
  journal: part(
    z.object({
      unit: z.object({ unit: z.string(), loadState: z.string(), activeState: z.string().optional(), subState: z.string().optional() }),
      lines: z.array(JournalLineSchema),
    }),
  ),
  containers: part(
    z.object({
      runtimeContainers: z.number().int().min(0),
      kubeletContainers: z.number().int().min(0),
      runtimeOnly: z.array(RuntimeContainerSchema),
      kubeletOnly: z.array(KubeletContainerSchema),
    }),
  ),
});
export type NodeContextView = z.infer<typeof NodeContextSchema>;
export type NodeContextPart = NodeContextView[keyof NodeContextView];

/** The config part's `from` when it is the kubelet's effective configuration (REST `/configz`), not its config file. */
export const CONFIGZ_FROM = 'GET /configz (kubelet REST API)';

/** Read (each part its own state), or not readable at all for this source now (its kind, not connected). */
export const NodeContextReadSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('read'), context: NodeContextSchema }),
  z.object({ status: z.literal('unavailable'), message: z.string(), nextStep: z.string() }),
]);
export type NodeContextRead = z.infer<typeof NodeContextReadSchema>;

/**
 * node.journalFollow, a subscription (jobs.ts): the unit's journal as the panel shows it (its last lines),
 * then each line as the journal grows, until the caller cancels it (the panel closed, Follow turned off) or
 * it ends by itself and answers why. The unit is one of the kubelet units Nodescope knows, never free text.
 */
export const JournalFollowRequestSchema = NodeIdSchema.extend({ unit: z.enum(KUBELET_UNITS) });
export const JournalFollowProgressSchema = z.object({ lines: z.array(JournalLineSchema) });
export const JournalFollowEndSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('unavailable'), message: z.string(), nextStep: z.string() }),
  z.object({ status: z.literal('ended'), message: z.string(), nextStep: z.string() }),
]);
export type JournalFollowEnd = z.infer<typeof JournalFollowEndSchema>;
