import { z } from 'zod';

/**
 * A problem of the app itself, not of one node (the saved node list unreadable, a save that failed),
 * shown as a banner until the user dismisses it: it says what happened and what to do.
 */
export const NoticeSchema = z.object({
  id: z.string(),
  message: z.string(),
  nextStep: z.string(),
});
export type Notice = z.infer<typeof NoticeSchema>;
