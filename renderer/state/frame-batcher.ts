/**
 * The next animation frame, or 250 ms at the latest: hidden windows get no frames, and batches must
 * not pile up there.
 */
function nextFrame(callback: () => void): void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    callback();
  };
  requestAnimationFrame(run);
  setTimeout(run, 250);
}

/**
 * Collects items as they arrive and hands them over in one call per animation frame, so a burst of
 * 1,000 watch events per second costs at most one render per frame.
 */
export class FrameBatcher<T> {
  private pending: T[] = [];
  private scheduled = false;

  constructor(
    private readonly flush: (items: T[]) => void,
    private readonly requestFrame: (callback: () => void) => unknown = nextFrame,
  ) {}

  push(item: T): void {
    this.pending.push(item);
    if (this.scheduled) return;
    this.scheduled = true;
    this.requestFrame(() => {
      this.scheduled = false;
      const items = this.pending;
      this.pending = [];
      this.flush(items);
    });
  }
}
