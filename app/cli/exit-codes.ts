import type { ExitClass } from '../util/nodescope-error';

/** Exit codes distinguish what went wrong, so scripts can react without parsing messages. */
export const EXIT = {
  ok: 0,
  /** `compare`: the sources differ (drift found). */
  drift: 1,
  /** Bad command line or bad input file. */
  usage: 2,
  /** SSH or socket could not be reached. */
  connection: 3,
  /** The kubelet answered with an error (initializing, rate limited, not found, too large, ...), or took a call and never answered it. */
  api: 4,
  /** Data could not be decoded. */
  data: 5,
  /** The output could not be written or delivered (a recording's disk, a reader that fell too far behind). */
  output: 6,
  internal: 70,
} as const;

/** The one table from an error's class (util/nodescope-error.ts) to the exit code scripts see. */
export const EXIT_OF_CLASS: Readonly<Record<ExitClass, number>> = {
  usage: EXIT.usage,
  connection: EXIT.connection,
  api: EXIT.api,
  data: EXIT.data,
  io: EXIT.output,
  internal: EXIT.internal,
};
