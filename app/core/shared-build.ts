/**
 * One build at a time shared by everyone who asks for the same thing (the fleet matrix of the same
 * sources, as a hundred windows or a view asking again would): a caller asking while it is built waits
 * for that build rather than starting another; a build already finished for the same version answers at
 * once. The build stops when every caller waiting for it cancelled.
 */
export class SharedBuild<T> {
  private last: { version: string; key: string; building: boolean; waiting: number; work: AbortController; result: Promise<T> } | null = null;

  /**
   * The build for `version` of `key`: the last one if it is of that version, or still under way for that
   * key; else a new one from `start`. Rejects with the caller's reason once `signal` aborts.
   */
  get(key: string, version: string, start: (signal: AbortSignal) => Promise<T>, signal: AbortSignal): Promise<T> {
    let entry = this.last;
    if (!entry || !(entry.version === version || (entry.key === key && entry.building))) {
      const work = new AbortController();
      const started = { version, key, building: true, waiting: 0, work, result: start(work.signal) };
      this.last = entry = started;
      started.result.then(
        () => (started.building = false),
        () => this.last === started && (this.last = null),
      );
    }
    if (!entry.building) return entry.result;
    const building = entry;
    building.waiting++;
    return new Promise<T>((resolve, reject) => {
      let waiting = true;
      const leave = () => {
        if (!waiting) return false;
        waiting = false;
        signal.removeEventListener('abort', cancelled);
        building.waiting--;
        return true;
      };
      const cancelled = () => {
        if (!leave()) return;
        if (building.waiting === 0) building.work.abort(signal.reason);
        reject(signal.reason);
      };
      if (signal.aborted) return cancelled();
      signal.addEventListener('abort', cancelled, { once: true });
      building.result.then(
        (value) => leave() && resolve(value),
        (err: unknown) => leave() && reject(err),
      );
    });
  }
}
