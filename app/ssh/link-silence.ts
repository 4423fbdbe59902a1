import type { Readable } from 'node:stream';

/**
 * Tells when an SSH link stops answering, well before its keepalives give up on it. ssh2 sends a keepalive
 * one interval after the last one was answered, so a link in working order is heard from at least every
 * interval plus a round trip, even when nothing else moves; half an interval more without a byte means a
 * keepalive went unanswered (a hung sshd, a cut cable). The pods shown are then possibly stale: the link may
 * come back, or the keepalives give up after ServerAliveCountMax of them and the connection is re-dialled.
 */

export interface LinkSilence {
  /** When the link was last heard from, while it is silent; null while it answers. */
  since(): number | null;
  stop(): void;
}

/** Watches the bytes arriving on `from` (the stream the SSH connection runs over); `onChange` on every change. */
export function watchLinkSilence(from: Readable, keepaliveIntervalMs: number, onChange: (silentSince: number | null) => void): LinkSilence {
  const limitMs = keepaliveIntervalMs * 1.5;
  let heardAt = Date.now();
  let silentSince: number | null = null;
  const heard = () => {
    heardAt = Date.now();
    if (silentSince === null) return;
    silentSince = null;
    onChange(null);
  };
  const checkMs = Math.max(50, keepaliveIntervalMs / 4);
  let checkedAt = Date.now();
  const timer = setInterval(() => {
    const now = Date.now();
    // A check that runs late found this process busy (decoding a big list), not the link silent: what arrived
    // meanwhile is read after the timers, so wait for the next check.
    const late = now - checkedAt > checkMs * 2;
    checkedAt = now;
    if (late || silentSince !== null || now - heardAt <= limitMs) return;
    silentSince = heardAt;
    onChange(silentSince);
  }, checkMs);
  // The check must not keep a CLI alive that has nothing else to do.
  timer.unref();
  const stop = () => {
    clearInterval(timer);
    from.off('data', heard);
  };
  from.on('data', heard);
  from.once('close', stop);
  return { since: () => silentSince, stop };
}
