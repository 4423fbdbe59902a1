import { z } from 'zod';
import { RequestResultSchema } from './errors';

/**
 * Every call of the contract is one mechanism on the wire, as VS Code's IPC has it (`call(command, arg,
 * CancellationToken)`, `listen(event, arg)`): the caller numbers its request; the host answers it once, and
 * before that, for a request whose contract entry has a `progress` schema, sends progress frames to that
 * caller only. The caller may cancel a call it no longer needs; the host cancels every call of a caller
 * whose window or connection went away.
 *
 * - A job (diff, mask preview, fleet matrix, export) sends its progress, then answers its result.
 * - A subscription (a node's pod deltas, a log follow) sends its items as progress and answers only
 *   when it ends by itself: the caller ends it by cancelling.
 *
 * The same frames travel over the browser-mode WebSocket (ws-wire.ts) and Electron's IPC (main/).
 */

/** How far a job is: units done of at most `total`. */
export const JobProgressSchema = z.object({
  done: z.number().int().min(0),
  total: z.number().int().min(0),
});
export type JobProgress = z.infer<typeof JobProgressSchema>;

/** Caller → host. */
export const ClientFrameSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('request'), id: z.number().int().min(0), name: z.string(), input: z.unknown() }),
  /** The caller no longer wants the call's answer: its work stops, its subscription ends. */
  z.object({ type: z.literal('cancel'), id: z.number().int().min(0) }),
]);
export type ClientFrame = z.infer<typeof ClientFrameSchema>;

/** Host → caller. Responses may arrive in any order; a call's progress always comes before its response. */
export const ServerFrameSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('response'), id: z.number().int(), result: RequestResultSchema }),
  z.object({ type: z.literal('progress'), id: z.number().int(), progress: z.unknown() }),
  z.object({ type: z.literal('event'), name: z.string(), payload: z.unknown() }),
]);
export type ServerFrame = z.infer<typeof ServerFrameSchema>;

/** The message a call fails with once its caller cancelled it (code 'cancelled'). */
export const CANCELLED_BY_CALLER = 'The request was cancelled.';
