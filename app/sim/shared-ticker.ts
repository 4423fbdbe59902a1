// One interval timer for many periodic tasks: a simulated fleet's thousand churns tick on it together
// instead of keeping a thousand timers firing every 10 ms.

export class SharedTicker {
  private readonly tasks = new Set<() => void>();
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly intervalMs: number) {}

  /** Runs `task` every interval from now on; returns the function that stops it. */
  add(task: () => void): () => void {
    this.tasks.add(task);
    if (!this.timer) {
      this.timer = setInterval(() => {
        for (const t of this.tasks) t();
      }, this.intervalMs);
      // As the churn's own timer: it alone keeps no process alive.
      (this.timer as { unref?: () => void }).unref?.();
    }
    return () => {
      this.tasks.delete(task);
      if (this.tasks.size === 0) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    };
  }
}
