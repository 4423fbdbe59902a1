// A wait given up: what it waited for (a ControlMaster login other nodes may share) still fails or succeeds later.
import { expect, it } from 'vitest';
import { unlessAborted } from './handed-on-prompter';

it('drops quietly the later failure of what a caller had already given up on before it waited', async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  try {
    let fail!: (err: Error) => void;
    const login = new Promise<boolean>((_, reject) => (fail = reject));
    const aborted = AbortSignal.abort();
    await expect(unlessAborted(login, aborted, () => new Error('given up'))).rejects.toThrow('given up');
    fail(new Error('ssh exited 255: Connection closed'));
    // Unhandled rejections are told once the microtasks after the failure have run: a turn of the loop later.
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(unhandled).toEqual([]);
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
});
