import { afterEach, describe, expect, it, vi } from 'vitest';
import { createConcurrencyLimit, type Progress } from './concurrency-limit';

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

  it('lets a silent task go of its slot, so a hanging node does not hold back the others', async () => {
    const limit = createConcurrencyLimit(1, { stallMs: 100 });
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

  describe('with progress told (fake timers)', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    /** Tasks started in the limit, each with its gate and its progress, by name. */
    function tasks(limit: ReturnType<typeof createConcurrencyLimit>, names: string[]) {
      const started: string[] = [];
      const byName = new Map<string, { gate: ReturnType<typeof gate>; progress?: Progress }>();
      const results = names.map((name) => {
        const entry: { gate: ReturnType<typeof gate>; progress?: Progress } = { gate: gate() };
        byName.set(name, entry);
        return limit.run((progress) => {
          started.push(name);
          entry.progress = progress;
          return entry.gate.promise;
        });
      });
      const get = (name: string) => byName.get(name)!;
      return { started, results, get };
    }

    it('keeps the slot of a task that tells its progress, however long it runs, and hands on that of a silent one', async () => {
      vi.useFakeTimers();
      const limit = createConcurrencyLimit(2, { stallMs: 100 });
      const { started, results, get } = tasks(limit, ['slow', 'silent', 'silent-too', 'last']);
      let peak = 0;
      // Ten stall times of steady progress from `slow` (and `last` once it runs): the two silent ones hand
      // their slots on in turn.
      for (let i = 0; i < 40; i++) {
        await vi.advanceTimersByTimeAsync(25);
        get('slow').progress!();
        get('last').progress?.();
        peak = Math.max(peak, limit.active());
      }
      expect(started).toEqual(['slow', 'silent', 'silent-too', 'last']);
      expect({ active: limit.active(), stalled: limit.stalled(), waiting: limit.waiting() }).toEqual({ active: 2, stalled: 2, waiting: 0 });
      expect(peak).toBe(2);
      for (const name of ['slow', 'silent', 'silent-too', 'last']) get(name).gate.open(name);
      expect(await Promise.all(results)).toEqual(['slow', 'silent', 'silent-too', 'last']);
      expect({ active: limit.active(), stalled: limit.stalled() }).toEqual({ active: 0, stalled: 0 });
    });

    it('never lets more than max tasks count while every one tells its progress', async () => {
      vi.useFakeTimers();
      const limit = createConcurrencyLimit(3, { stallMs: 100 });
      const names = Array.from({ length: 8 }, (_, i) => `node-${i}`);
      const { started, results, get } = tasks(limit, names);
      let peak = 0;
      // Each runs four stall times, telling its progress as it goes; one ends every 100 ms from the fourth on.
      for (let t = 1; started.length < names.length || limit.active() > 0; t++) {
        await vi.advanceTimersByTimeAsync(20);
        for (const name of started) get(name).progress!();
        if (t >= 20 && t % 5 === 0) get(started[t / 5 - 4]!).gate.open('done');
        peak = Math.max(peak, limit.active());
        expect(limit.stalled()).toBe(0);
      }
      expect(peak).toBe(3);
      expect(await Promise.all(results)).toEqual(names.map(() => 'done'));
    });

    it('counts a silent task again once it moves on, and starts no other until the count is below max', async () => {
      vi.useFakeTimers();
      const limit = createConcurrencyLimit(1, { stallMs: 100 });
      const { started, get } = tasks(limit, ['hesitant', 'second', 'third']);
      await vi.advanceTimersByTimeAsync(150);
      expect(started).toEqual(['hesitant', 'second']);
      expect(limit.stalled()).toBe(1);
      get('hesitant').progress!();
      expect({ active: limit.active(), stalled: limit.stalled() }).toEqual({ active: 2, stalled: 0 });
      get('second').gate.open('second');
      await vi.advanceTimersByTimeAsync(0);
      // `hesitant` fills the one slot on its own.
      expect(started).toEqual(['hesitant', 'second']);
      expect(limit.active()).toBe(1);
      get('hesitant').gate.open('hesitant');
      await vi.advanceTimersByTimeAsync(0);
      expect(started).toEqual(['hesitant', 'second', 'third']);
      get('third').gate.open('third');
    });

    it('does not take the slot of a task for the time this process was too busy to read its progress', async () => {
      vi.useFakeTimers();
      const limit = createConcurrencyLimit(1, { stallMs: 100 });
      const { started, get } = tasks(limit, ['busy', 'next']);
      await vi.advanceTimersByTimeAsync(50);
      get('busy').progress!();
      // The process is busy for a second (decoding): the check comes late, before the progress that arrived
      // meanwhile is read.
      vi.setSystemTime(Date.now() + 1_000);
      await vi.advanceTimersByTimeAsync(50);
      get('busy').progress!();
      expect(started).toEqual(['busy']);
      expect(limit.stalled()).toBe(0);
      // Then silent for a stall time: it hands its slot on.
      await vi.advanceTimersByTimeAsync(150);
      expect(started).toEqual(['busy', 'next']);
      expect(limit.stalled()).toBe(1);
      get('busy').gate.open('busy');
      get('next').gate.open('next');
    });
  });

  it('refuses a limit that is not a whole number >= 1', () => {
    expect(() => createConcurrencyLimit(0)).toThrow(/whole number >= 1, got 0/);
    expect(() => createConcurrencyLimit(1.5)).toThrow(RangeError);
  });
});
