import { z } from 'zod';

/**
 * A problem of the app itself, not of one node (the saved node list unreadable, a save that failed), or news
 * of something the app did on its own (nodes switched to rows only), shown as a banner until the user dismisses
 * it: it says what happened and what to do.
 */
export const NoticeSchema = z.object({
  id: z.string(),
  message: z.string(),
  nextStep: z.string(),
  /** 'info': the app did as it is set to, nothing is wrong; absent: a problem. */
  tone: z.literal('info').optional(),
});
export type Notice = z.infer<typeof NoticeSchema>;
