/**
 * A backoff wait that someone else can end early: a retry the user asked for, or a close that must
 * not sit out the delay. Waking resolves the wait (it never rejects), so the sleeper decides what
 * to do next by its own state, e.g. a `closed` flag.
 */
export interface WakeableSleep {
  /** Resolves after `ms`, or as soon as wake() is called. */
  sleep(ms: number): Promise<void>;
  /** Ends the latest sleep now and drops its timer; does nothing when that sleep is over. */
  wake(): void;
}

export function wakeableSleep(): WakeableSleep {
  let wakeLatest: (() => void) | undefined;
  return {
    sleep: (ms) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        wakeLatest = () => {
          // The timer goes too, so a woken wait does not keep the process alive for the rest of the delay.
          clearTimeout(timer);
          resolve();
        };
      }),
    wake: () => wakeLatest?.(),
  };
}
