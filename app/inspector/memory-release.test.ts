import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { createMemoryRelease } from './memory-release';

const MIB = 1 << 20;

/** Pods' worth of small objects, as a relist leaves behind: held until the caller drops them. */
function manySmallObjects(count: number): { uid: string; digest: string; row: string[] }[] {
  const out = [];
  for (let i = 0; i < count; i++) out.push({ uid: `uid-${i}`, digest: `digest-${i}-${'x'.repeat(40)}`, row: [`ns-${i % 50}`, `pod-${i}`, 'Running'] });
  return out;
}

function released(options: { growthBytes: number }) {
  const calls: { before: number; after: number }[] = [];
  const release = createMemoryRelease({ ...options, settleMs: 0, released: (before, after) => calls.push({ before, after }) });
  return { release, calls };
}

const settled = () => new Promise((r) => setTimeout(r, 50));
const until = async (done: () => boolean) => {
  while (!done()) await settled();
};

describe('memory release', () => {
  it('gives a dropped pod set back: the heap shrinks to what is still in use', async () => {
    const { release, calls } = released({ growthBytes: 16 * MIB });
    let set: unknown = manySmallObjects(1_000_000);
    const grown = getHeapStatistics().total_heap_size;
    set = null;
    release.afterLargeChange();
    await until(() => calls.length === 1);
    release.close();
    expect(set).toBeNull();
    // The million objects took well over 100 MiB; an ordinary collection keeps the heap at that size.
    expect(grown - getHeapStatistics().total_heap_size).toBeGreaterThan(64 * MIB);
  });

  it('leaves a process that has not grown alone, and collects once for a burst of changes', async () => {
    const { release, calls } = released({ growthBytes: 1024 * MIB });
    release.afterLargeChange();
    await settled();
    expect(calls).toHaveLength(0);
    release.close();

    const burst = released({ growthBytes: -Infinity });
    for (let i = 0; i < 5; i++) burst.release.afterLargeChange();
    await until(() => burst.calls.length > 0);
    await settled();
    expect(burst.calls).toHaveLength(1);
    burst.release.close();
  });

  it('does nothing once closed', async () => {
    const { release, calls } = released({ growthBytes: -Infinity });
    release.afterLargeChange();
    release.close();
    await settled();
    expect(calls).toHaveLength(0);
  });
});
