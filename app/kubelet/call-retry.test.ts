import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { createPrivateSocketDir, type PrivateSocketDir } from '../ssh/private-socket-dir';
import { retryWhileBusy } from './call-retry';
import { createKubeletClient } from './kubelet-client';
import { KubeletError } from './kubelet-error';

const QUICK = { initialMs: 1, factor: 1, maxMs: 1, jitter: 0 };
const initializing = () => new KubeletError('INITIALIZING', 'The kubelet is initializing: not ready', 'Wait a few seconds; Nodescope retries on its own.');

describe('retryWhileBusy', () => {
  it('leaves no abort listener behind however often it waits (Node warns from the 11th)', async () => {
    const closing = new AbortController();
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      let calls = 0;
      const result = await retryWhileBusy(
        async () => {
          if (++calls < 20) throw initializing();
          return 'listed';
        },
        { backoff: QUICK, maxWaitMs: 600_000, signal: closing.signal },
      );
      expect(result).toBe('listed');
      expect(calls).toBe(20);
      expect(getEventListeners(closing.signal, 'abort')).toHaveLength(0);
      // A warning is emitted on the next tick.
      await new Promise((r) => setImmediate(r));
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('ends at once when the signal aborts during a call, before its wait began', async () => {
    const closing = new AbortController();
    const waiting = retryWhileBusy(() => Promise.reject(initializing()), { backoff: { ...QUICK, initialMs: 600_000, maxMs: 600_000 }, maxWaitMs: 6_000_000, signal: closing.signal });
    closing.abort(new Error('the kubelet client was closed'));
    await expect(waiting).rejects.toThrow('the kubelet client was closed');
  });
});

describe('a kubelet that stays initializing', () => {
  let sim: SimulatedKubelet | undefined;
  let dir: PrivateSocketDir | undefined;
  afterEach(async () => {
    await sim?.stop();
    dir?.remove();
  });

  it('gives up with a next step that no longer promises a retry', async () => {
    dir = createPrivateSocketDir('stays-initializing.sock');
    sim = await startSimulatedKubelet({ socketPath: dir.socketPath, pods: 3, initializingMs: 600_000 });
    const retried: number[] = [];
    const client = createKubeletClient({
      target: dir.socketPath,
      socketPath: dir.socketPath,
      retry: { maxWaitMs: 300, backoff: { initialMs: 20, factor: 1, maxMs: 20, jitter: 0 }, onRetry: (_e, _d, attempt) => retried.push(attempt) },
    });
    try {
      const err = await client.listPods().catch((e: unknown) => e);
      expect(retried.length).toBeGreaterThan(0);
      expect(err).toBeInstanceOf(KubeletError);
      expect(err).toMatchObject({ code: 'INITIALIZING' });
      expect((err as KubeletError).message).toMatch(/The kubelet is initializing.*Nodescope waited \d+\.\d s for it and stopped/);
      expect((err as KubeletError).nextStep).not.toMatch(/retries/);
      expect((err as KubeletError).nextStep).toContain('journalctl -u kubelet');
    } finally {
      client.close();
    }
  });
});
