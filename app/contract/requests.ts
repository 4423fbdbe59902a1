import { z } from 'zod';
import { NodeIdSchema, NodeInfoSchema, NodeSpecSchema, SshHostSchema } from './nodes';
import {
  ExportRequestSchema,
  ExportResultSchema,
  PodDetailSchema,
  PodRowsSnapshotSchema,
} from './pods';
import { NoticeSchema } from './notices';
import { PromptAnswerSchema, PromptSchema } from './prompts';

const NoInput = z.object({}).strict();
const Done = z.object({}).strict();

export const MaskCheckSchema = z.discriminatedUnion('ok', [
  /** The normalized paths the mask keeps. */
  z.object({ ok: z.literal(true), paths: z.array(z.string()) }),
  /** position: 0-based character offset of the problem in the text, when known. */
  z.object({ ok: z.literal(false), error: z.string(), position: z.number().int().optional() }),
]);
export type MaskCheck = z.infer<typeof MaskCheckSchema>;

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
    }),
  },
  'nodes.list': { input: NoInput, output: z.array(NodeInfoSchema) },
  /** Adds and starts connecting. */
  'nodes.add': { input: NodeSpecSchema, output: NodeInfoSchema },
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
  'sshHosts.list': { input: NoInput, output: z.array(SshHostSchema) },
  /** The node's current rows; later podDeltas with seq ≤ the returned seq are already included. */
  'pods.rows': { input: NodeIdSchema, output: PodRowsSnapshotSchema },
  'pods.get': {
    input: NodeIdSchema.extend({ uid: z.string().min(1, 'uid is required') }),
    output: PodDetailSchema,
  },
  'pods.export': { input: ExportRequestSchema, output: ExportResultSchema },
  /** Prompts still waiting for an answer (a reloaded window asks again). */
  'prompts.pending': { input: NoInput, output: z.array(PromptSchema) },
  'prompts.answer': {
    input: z.object({ promptId: z.string().min(1), answer: PromptAnswerSchema }),
    output: Done,
  },
  /** Checks a field mask as the user types, without applying it. */
  'mask.validate': { input: z.object({ mask: z.string().max(10_000) }), output: MaskCheckSchema },
  /** The app's own problems not yet dismissed, oldest first (a window opened later shows them too). */
  'notices.list': { input: NoInput, output: z.array(NoticeSchema) },
  'notices.dismiss': { input: z.object({ id: z.string().min(1).max(100) }).strict(), output: Done },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>;

export type Requests = typeof requests;
export type RequestName = keyof Requests;
/** What a caller passes (before defaults and trimming). */
export type RequestInput<N extends RequestName> = z.input<Requests[N]['input']>;
/** What a handler receives (after validation). */
export type ValidInput<N extends RequestName> = z.output<Requests[N]['input']>;
export type RequestOutput<N extends RequestName> = z.output<Requests[N]['output']>;
export const requestNames = Object.keys(requests) as RequestName[];
