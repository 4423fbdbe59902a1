import { z } from 'zod';
import { LogFollowEndedSchema, LogLinesSchema } from './logs';
import { NodeMetricsEventSchema } from './node-metrics';
import { NodeInfoSchema } from './nodes';
import { NoticeSchema } from './notices';
import { PodDeltasSchema, WatchEventsSchema } from './pods';
import { PromptSchema } from './prompts';

/**
 * Everything the app core pushes to the UI: name → payload schema. Hosts batch podDeltas and
 * watchEvents (at most a few per second per node is plenty); the renderer coalesces further, to at
 * most one render per animation frame.
 */
export const events = {
  /** A node was added or its state, label, mask or pod count changed: its full record. */
  nodeState: NodeInfoSchema,
  nodeRemoved: z.object({ nodeId: z.string() }),
  /** A node's metrics were read again (at an interval), or are gone (null: disconnected). */
  nodeMetrics: NodeMetricsEventSchema,
  podDeltas: PodDeltasSchema,
  watchEvents: WatchEventsSchema,
  prompt: PromptSchema,
  /** The prompt was answered elsewhere or is no longer needed. */
  promptClosed: z.object({ id: z.string() }),
  /** A new problem of the app itself (notices.list has all that are not dismissed). */
  notice: NoticeSchema,
  /** The notice's problem is over (a later save worked) or it was dismissed. */
  noticeClosed: z.object({ id: z.string() }),
  /** A log follow's next lines (logs.follow). */
  logLines: LogLinesSchema,
  /** A log follow is over; its last logLines came before. */
  logFollowEnded: LogFollowEndedSchema,
} as const satisfies Record<string, z.ZodType>;

export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;
export const eventNames = Object.keys(events) as EventName[];
