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

/**
 * The first SIGINT, SIGTERM or SIGHUP (its terminal closed), caught so a command can stop gracefully (the sim
 * removes its sockets, ui its launch page). `release` gives the signals back to Node's default (exit) once the
 * command no longer waits for them, so a second one during a slow stop still ends the process.
 */
export function catchStopSignal(): { received: Promise<NodeJS.Signals>; release: () => void } {
  let onSignal: (signal: NodeJS.Signals) => void = () => {};
  const release = () => {
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
  };
  const received = new Promise<NodeJS.Signals>((resolve) => {
    onSignal = (signal) => {
      release();
      resolve(signal);
    };
  });
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  return { received, release };
}
