import { z } from 'zod';
import { NodeMetricsEventSchema } from './node-metrics';
import { NodeInfoSchema } from './nodes';
import { NoticeSchema } from './notices';
import { PromptSchema } from './prompts';
import { SettingsSchema } from './settings';

/**
 * Everything the app core pushes to every window: name → payload schema. A node's pod batches and
 * events-feed lines are no event: a window subscribes to the nodes it shows (`pods.watch`) and gets
 * theirs only.
 */
export const events = {
  /**
   * A node was added or its state, label, mask or settings changed: its full record, once per change. Not
   * sent again when only its pods change (its podCount is as of the record's sending; pods.watch has them).
   */
  nodeState: NodeInfoSchema,
  nodeRemoved: z.object({ nodeId: z.string() }),
  /** A node's metrics were read again (at an interval), or are gone (null: disconnected). */
  nodeMetrics: NodeMetricsEventSchema,
  /** The end of an ended instance's log was kept in the pod's history (pods.history lists it). */
  podLogKept: z.object({ nodeId: z.string(), uid: z.string() }),
  prompt: PromptSchema,
  /** The prompt was answered elsewhere or is no longer needed. */
  promptClosed: z.object({ id: z.string() }),
  /** A new problem of the app itself (notices.list has all that are not dismissed). */
  notice: NoticeSchema,
  /** The notice's problem is over (a later save worked) or it was dismissed. */
  noticeClosed: z.object({ id: z.string() }),
  /** The settings changed (in any window): all of them as they are now. */
  settings: SettingsSchema,
} as const satisfies Record<string, z.ZodType>;

export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;
export const eventNames = Object.keys(events) as EventName[];
