import { describe, expect, it } from 'vitest';
import { createConcurrencyLimit } from './concurrency-limit';

/** A task the test settles by hand. */
function gate<T = string>() {
  let open!: (v: T) => void;
  let fail!: (e: Error) => void;
  const promise = new Promise<T>((res, rej) => ((open = res), (fail = rej)));
  return { promise, open, fail };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('createConcurrencyLimit', () => {
  it('runs at most max tasks at once and starts the next as one settles, in order', async () => {
    const limit = createConcurrencyLimit(2);
    const gates = [gate(), gate(), gate(), gate()];
    const started: number[] = [];
    const results = Promise.allSettled(gates.map((g, i) => limit.run(() => (started.push(i), g.promise))));
    await tick();
    expect(started).toEqual([0, 1]);
    expect([limit.active(), limit.waiting()]).toEqual([2, 2]);
    gates[1]!.open('b');
    await tick();
    expect(started).toEqual([0, 1, 2]);
    gates[0]!.fail(new Error('node-0 unreachable'));
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    gates[2]!.open('c');
    gates[3]!.open('d');
    expect(await results).toEqual([
      { status: 'rejected', reason: new Error('node-0 unreachable') },
      { status: 'fulfilled', value: 'b' },
      { status: 'fulfilled', value: 'c' },
      { status: 'fulfilled', value: 'd' },
    ]);
    expect([limit.active(), limit.waiting()]).toEqual([0, 0]);
  });

  it('turns a task that throws synchronously into a rejection and frees its slot', async () => {
    const limit = createConcurrencyLimit(1);
    const bad = limit.run(() => {
      throw new Error('bad source');
    });
    await expect(bad).rejects.toThrow('bad source');
    expect(await limit.run(async () => 'next')).toBe('next');
  });

  it('lets a stalled task go of its slot, so a hanging node does not hold back the others', async () => {
    const limit = createConcurrencyLimit(1, { stallMs: 20 });
    const hang = gate();
    const order: string[] = [];
    const hung = limit.run(() => hang.promise).then((v) => order.push(v));
    const healthy = limit.run(async () => 'healthy').then((v) => order.push(v));
    await healthy;
    expect(order).toEqual(['healthy']);
    expect(limit.stalled()).toBe(1);
    expect(limit.active()).toBe(0);
    hang.open('hung');
    await hung;
    expect(order).toEqual(['healthy', 'hung']);
    expect(limit.stalled()).toBe(0);
  });

  it('refuses a limit that is not a whole number >= 1', () => {
    expect(() => createConcurrencyLimit(0)).toThrow(/whole number >= 1, got 0/);
    expect(() => createConcurrencyLimit(1.5)).toThrow(RangeError);
  });
});
