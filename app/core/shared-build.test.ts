import { describe, expect, it } from 'vitest';
import { SharedBuild } from './shared-build';

/** A build the test finishes by hand, and what became of its signal. */
function handBuild() {
  const started: { signal: AbortSignal; finish: (value: string) => void }[] = [];
  const start = (signal: AbortSignal) =>
    new Promise<string>((resolve, reject) => {
      started.push({ signal, finish: resolve });
      signal.addEventListener('abort', () => reject(signal.reason));
    });
  return { started, start };
}

describe('a build shared by its callers', () => {
  it('answers every caller of one version from one build, and the next version from a new one', async () => {
    const shared = new SharedBuild<string>();
    const { started, start } = handBuild();
    const never = new AbortController().signal;
    const first = shared.get('a,b', 'v1', start, never);
    const second = shared.get('a,b', 'v2', start, never);
    expect(started).toHaveLength(1);
    started[0]!.finish('matrix 1');
    await expect(Promise.all([first, second])).resolves.toEqual(['matrix 1', 'matrix 1']);
    await expect(shared.get('a,b', 'v1', start, never)).resolves.toBe('matrix 1');
    const third = shared.get('a,b', 'v3', start, never);
    expect(started).toHaveLength(2);
    started[1]!.finish('matrix 3');
    await expect(third).resolves.toBe('matrix 3');
  });

  it('goes on while one caller waits, and stops once every caller cancelled', async () => {
    const shared = new SharedBuild<string>();
    const { started, start } = handBuild();
    const one = new AbortController();
    const two = new AbortController();
    const first = shared.get('a', 'v1', start, one.signal);
    const second = shared.get('a', 'v1', start, two.signal);
    one.abort(new Error('window one closed'));
    await expect(first).rejects.toThrow('window one closed');
    expect(started[0]!.signal.aborted).toBe(false);
    two.abort(new Error('window two closed'));
    await expect(second).rejects.toThrow('window two closed');
    expect(started[0]!.signal.aborted).toBe(true);
    // Stopped, it is no answer for the next caller: a new build starts.
    await Promise.resolve();
    void shared.get('a', 'v1', start, new AbortController().signal).catch(() => undefined);
    expect(started).toHaveLength(2);
  });
});
