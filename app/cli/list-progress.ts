/**
 * "nodescope: 12,345 pods received" while a big node's list arrives: on stderr, and only when stderr is a
 * terminal (never in piped output or logs, never in the data), redrawn in place at most every 100 ms and
 * erased when the list is in, so the terminal is left as if it had not been there.
 */
interface Terminal {
  isTTY?: boolean;
  write(text: string): unknown;
}

const REDRAW_MS = 100;

export interface ListProgress {
  /** One more pod received. */
  pod(): void;
  /** Writes a line of its own (a warning) without mixing it into the progress line. */
  line(text: string): void;
  /** Erases the progress line. */
  done(): void;
}

/** `enabled`: false when the data itself goes to this terminal (progress would be drawn over it). */
export function listProgress(enabled: boolean, err: Terminal = process.stderr): ListProgress {
  const shown = enabled && err.isTTY === true;
  let pods = 0;
  let drawnAt = -Infinity;
  let drawn = false;
  const erase = () => {
    if (drawn) err.write('\r\x1b[K');
    drawn = false;
  };
  return {
    pod() {
      pods++;
      if (!shown) return;
      const now = performance.now();
      if (now - drawnAt < REDRAW_MS) return;
      drawnAt = now;
      err.write(`\r\x1b[Knodescope: ${pods.toLocaleString('en-US')} ${pods === 1 ? 'pod' : 'pods'} received`);
      drawn = true;
    },
    line(text) {
      erase();
      err.write(`${text}\n`);
    },
    done: erase,
  };
}
