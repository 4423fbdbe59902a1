/**
 * The signals that stop the process (an interrupt, a kill, the terminal going away), and cleanup that must run
 * when one ends it: a terminal put back in cooked mode, private sockets removed. Node's own handling of them
 * (which also restores the terminal) is gone once any listener was added, so a listener that cleans up must
 * also end the process as the signal would, unless someone else handles it (a command that stops gracefully).
 */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Runs `cleanup` at the first stop signal; returns the function that removes it again. */
export function cleanUpOnStopSignal(cleanup: () => void): () => void {
  const listeners = STOP_SIGNALS.map((signal) => {
    const onSignal = () => {
      cleanup();
      // Run first (prepended), so the others are still counted: a `once` listener that ran before this one
      // would have removed itself.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    };
    process.prependOnceListener(signal, onSignal);
    return [signal, onSignal] as const;
  });
  return () => {
    for (const [signal, onSignal] of listeners) process.off(signal, onSignal);
  };
}
