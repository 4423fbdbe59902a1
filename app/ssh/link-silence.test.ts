import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { watchLinkSilence } from './link-silence';

describe('watchLinkSilence', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('calls a link silent once a keepalive went unanswered, from when it was last heard, and answering again when bytes come', () => {
    const link = new PassThrough();
    const changes: (number | null)[] = [];
    const silence = watchLinkSilence(link, 1000, (since) => changes.push(since));
    // Keepalive answers every interval: never silent.
    for (let i = 0; i < 5; i++) {
      vi.advanceTimersByTime(1000);
      link.write('answer');
    }
    expect(changes).toEqual([]);
    const lastHeard = Date.now();
    vi.advanceTimersByTime(1400);
    expect(silence.since()).toBeNull();
    vi.advanceTimersByTime(400);
    expect(changes).toEqual([lastHeard]);
    expect(silence.since()).toBe(lastHeard);
    // Said once, however long it lasts.
    vi.advanceTimersByTime(5000);
    expect(changes).toHaveLength(1);
    link.write('answer');
    expect(changes).toEqual([lastHeard, null]);
    expect(silence.since()).toBeNull();
    silence.stop();
  });

  it('does not call a link silent for the time this process was too busy to read it', () => {
    const link = new PassThrough();
    const changes: (number | null)[] = [];
    const silence = watchLinkSilence(link, 1000, (since) => changes.push(since));
    vi.advanceTimersByTime(500);
    // The event loop blocked for 10 s: the timers run before the bytes that came meanwhile are read.
    vi.setSystemTime(Date.now() + 10_000);
    vi.advanceTimersByTime(250);
    link.write('answer');
    vi.advanceTimersByTime(1000);
    expect(changes).toEqual([]);
    silence.stop();
  });

  it('stops watching when the link closes', async () => {
    const link = new PassThrough();
    const changes: (number | null)[] = [];
    watchLinkSilence(link, 1000, (since) => changes.push(since));
    link.destroy();
    await new Promise((r) => link.once('close', r));
    vi.advanceTimersByTime(10_000);
    expect(changes).toEqual([]);
  });
});
