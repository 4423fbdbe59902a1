/**
 * Logs 'turn' into `log` in the check phase of every turn of the event loop, after its I/O (what a watch's
 * socket or a request would get), until stopped: tests of work in slices check that no two slices of it
 * ran without a turn between them.
 */
export function logLoopTurns(log: string[]): () => void {
  let running = true;
  const turn = () => {
    if (!running) return;
    log.push('turn');
    setImmediate(turn);
  };
  setImmediate(turn);
  return () => {
    running = false;
  };
}
