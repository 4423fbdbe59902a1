import { z } from 'zod';

/**
 * A pod container's log, read from the node's files (app/logs) by the node's live source: logs.read for
 * the last lines, or logs.follow, a subscription (jobs.ts), for them and every line written after, sent as
 * its progress to its caller only until the caller cancels it (the tab closed, another pod or container,
 * the window gone) or it ends by itself and answers why.
 */

/** At most this many lines per read (and per follow's first batch): what the Logs tab keeps scrollable. */
export const LOG_LINES_MAX = 100_000;
/** A read answers at most this many characters of lines (about 32 MiB in memory): older lines go first. */
export const LOG_READ_CHARS_MAX = 16 * 1024 * 1024;
/** A longer line is cut here (UTF-16 units) and says how much was left out: one line must not stall the window. */
export const LOG_LINE_CHARS_MAX = 64 * 1024;

export const LogRequestSchema = z.object({
  nodeId: z.string().min(1),
  uid: z.string().min(1, 'uid is required'),
  /** Omitted: the first container with a log on the node (name order). */
  container: z.string().min(1).max(63).optional(),
  /** The instance before the current one (kubectl logs --previous). */
  previous: z.boolean().default(false),
  /**
   * The end of this instance's log as the pod's history kept it when the instance ended (pods.history's
   * crashLogs), rather than the node's file.
   */
  instance: z.number().int().min(0).optional(),
  /** The last N lines (kubectl logs --tail). */
  tailLines: z.number().int().min(0).max(LOG_LINES_MAX).default(1000),
  /** Only lines newer than this many seconds (kubectl logs --since). */
  sinceSeconds: z.number().int().min(1).optional(),
  /** Each line starts with its time (kubectl logs --timestamps). */
  timestamps: z.boolean().default(false),
});
export type LogRequest = z.input<typeof LogRequestSchema>;

/** What the node has for the pod: which containers have logs, and which one was read. */
const LogTargetSchema = z.object({
  /** Containers with a log directory on the node, in name order. */
  containers: z.array(z.string()),
  container: z.string(),
  /** Where the lines come from, in words: the node's log files, or the kubelet's REST API (`GET …/containerLogs/…`). */
  from: z.string().optional(),
});

export const LogReadSchema = z.discriminatedUnion('status', [
  LogTargetSchema.extend({
    status: z.literal('ok'),
    /** The lines as text: invalid UTF-8 as U+FFFD, a line over LOG_LINE_CHARS_MAX cut (and saying so). */
    lines: z.array(z.string()),
    /** Older lines of the range left out to keep the answer within LOG_READ_CHARS_MAX. */
    omitted: z.number().int().min(0).optional(),
    /**
     * Set when the lines were kept when the instance ended (by a recording, or in a live pod's history): the
     * end of the instance's log as captured then (the node may have removed the file since).
     */
    captured: z
      .object({
        /** Who kept them: a recording, or the pod's history while the app watched the live node. */
        by: z.enum(['recording', 'history']),
        /** When they were kept (epoch ms). */
        at: z.number(),
        /** The instance's log file number on the node. */
        instance: z.number().int().min(0),
        reason: z.string().optional(),
        exitCode: z.number().int().optional(),
        /** The terminated state's finishedAt, as the status gave it. */
        finishedAt: z.string().optional(),
        /** The instance's log held more before the lines kept. */
        truncated: z.boolean(),
      })
      .optional(),
  }),
  /**
   * No log to show, and why: an offline source (snapshot, recording), a node not connected, a container
   * that has not started, no previous instance. Not an error of the app: the tab says it as it is.
   */
  z.object({
    status: z.literal('unavailable'),
    message: z.string(),
    nextStep: z.string(),
    containers: z.array(z.string()).optional(),
  }),
]);
export type LogRead = z.infer<typeof LogReadSchema>;

/** A follow's items: first what it follows, then its lines (the tail first, then as they are written) in batches, a few a second at most. */
export const LogFollowProgressSchema = z.discriminatedUnion('status', [
  LogTargetSchema.extend({ status: z.literal('following') }),
  z.object({ status: z.literal('lines'), lines: z.array(z.string()) }),
]);
export type LogFollowProgress = z.infer<typeof LogFollowProgressSchema>;

/**
 * Why a follow ended by itself: nothing to follow (as logs.read says it), the container restarted or its
 * node's link went ('ended'), or reading failed. A follow its caller cancelled answers nothing.
 */
export const LogFollowEndSchema = z.discriminatedUnion('status', [
  LogReadSchema.options[1],
  z.object({ status: z.literal('ended'), reason: z.enum(['ended', 'failed']), message: z.string(), nextStep: z.string() }),
]);
export type LogFollowEnd = z.infer<typeof LogFollowEndSchema>;
