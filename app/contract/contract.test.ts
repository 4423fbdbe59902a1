import { describe, expect, it } from 'vitest';
import {
  ContractError,
  CALL_CHANNEL,
  FRAME_CHANNEL,
  handleRequest,
  validateEvent,
  validateProgress,
  validateRequest,
  bridgeSocketUrl,
} from './index';
import { SshError } from '../ssh/ssh-errors';
import { createFakeBridge } from './testing/fake-bridge';
import type { PodRow } from './pods';
import { testRow } from './testing/test-row';

const row: PodRow = testRow({ uid: 'u1', namespace: 'kube-system', name: 'coredns-1', podIP: '10.0.0.2', node: 'n1', ownerName: 'coredns', labels: { app: 'dns' } });

describe('validateRequest', () => {
  it('accepts a valid request and trims what the user typed; a node without kind is an SSH node', () => {
    expect(validateRequest('nodes.add', { host: '  node-1 ', port: 2222, sudo: true })).toEqual({
      kind: 'ssh',
      host: 'node-1',
      port: 2222,
      sudo: true,
    });
    expect(validateRequest('nodes.add', { kind: 'unix', socketPath: '/run/pods.sock' })).toEqual({ kind: 'unix', socketPath: '/run/pods.sock' });
  });

  it('names the bad field of a source by its kind, and refuses kinds nodes.add cannot start', () => {
    expect(catchError(() => validateRequest('nodes.add', { kind: 'unix', socketPath: 'pods.sock' })).message).toContain('socketPath: The socket path must be absolute');
    expect(catchError(() => validateRequest('nodes.add', { kind: 'snapshot', file: '/tmp/pods.json' })).code).toBe('invalid-input');
  });

  it('rejects an unknown request and lists the valid ones', () => {
    const err = catchError(() => validateRequest('pods.delete', {}));
    expect(err.code).toBe('unknown-request');
    expect(err.message).toContain('"pods.delete"');
    expect(err.nextStep).toContain('pods.get');
  });

  it('names the bad field and why', () => {
    const err = catchError(() => validateRequest('nodes.add', { host: 'n', port: 70000, socketPath: 'relative.sock' }));
    expect(err.code).toBe('invalid-input');
    expect(err.message).toMatch(/port: The port must be a whole number from 1 to 65535/);
    expect(err.message).toMatch(/socketPath: The socket path must be absolute/);
    expect(() => validateRequest('nodes.add', { host: '-oProxyCommand=evil' })).toThrow(/host: .*does not start with "-"/);
    expect(() => validateRequest('nodes.add', { host: 'node 1' })).toThrow(/host: .*no spaces/);
  });

  it('refuses extra keys where a request takes no input', () => {
    expect(() => validateRequest('nodes.list', { sneaky: 1 })).toThrow(/Invalid input for nodes.list/);
    expect(validateRequest('nodes.list', undefined)).toEqual({});
  });

  it('checks prompt answers by kind', () => {
    expect(() =>
      validateRequest('prompts.answer', { promptId: 'p1', answer: { kind: 'hostKey', decision: 'maybe' } }),
    ).toThrow(/answer.decision/);
    expect(validateRequest('prompts.answer', { promptId: 'p1', answer: { kind: 'secret', value: null } })).toEqual({
      promptId: 'p1',
      answer: { kind: 'secret', value: null },
    });
  });

  it('requires a non-empty uid list or "all" for export', () => {
    expect(() => validateRequest('pods.export', { nodeId: 'n', uids: [], format: 'list' })).toThrow(/at least one pod/);
    expect(() => validateRequest('pods.export', { nodeId: 'n', uids: 'all', format: 'xml' })).toThrow(/format/);
  });

  it('refuses a matrix that names one source twice, naming the field', () => {
    for (const name of ['fleet.matrix', 'fleet.watchMatrix'] as const) {
      const err = catchError(() => validateRequest(name, { nodeIds: ['n1', 'n2', 'n1'] }));
      expect(err.code).toBe('invalid-input');
      expect(err.field).toBe('nodeIds');
      expect(err.message).toContain('nodeIds: Give each source once');
    }
    expect(validateRequest('fleet.matrix', { nodeIds: ['n1', 'n2'] })).toEqual({ nodeIds: ['n1', 'n2'] });
  });
});

describe('handleRequest', () => {
  it('wraps handler output and errors in a result envelope with the next step', async () => {
    const ok = await handleRequest({ 'nodes.list': () => [] }, 'nodes.list', {});
    expect(ok).toEqual({ ok: true, value: [] });
    const failed = await handleRequest(
      {
        'nodes.connect': () => {
          throw new ContractError('not-found', 'No node n9.', 'Pick a node from the sidebar.');
        },
      },
      'nodes.connect',
      { nodeId: 'n9' },
    );
    expect(failed).toEqual({ ok: false, error: { code: 'not-found', message: 'No node n9.', nextStep: 'Pick a node from the sidebar.' } });
  });

  it('keeps the next step of an error from the layers below', async () => {
    const sshFailure = new SshError('AUTH_FAILED', 'Authentication failed for ops@node-1:22', 'Load the right key into ssh-agent.');
    const failed = await handleRequest({ 'nodes.connect': () => Promise.reject(sshFailure) }, 'nodes.connect', { nodeId: 'n1' });
    expect(failed).toEqual({ ok: false, error: { code: 'internal', message: sshFailure.message, nextStep: 'Load the right key into ssh-agent.' } });
  });

  it('does not call the handler with invalid input', async () => {
    let called = false;
    const result = await handleRequest({ 'pods.get': () => ((called = true), undefined as never) }, 'pods.get', { nodeId: 'n' });
    expect(called).toBe(false);
    expect(result.ok).toBe(false);
  });

  it('reports a handler that returns the wrong shape', async () => {
    const result = await handleRequest({ 'pods.rows': () => ({ seq: -1, rows: [] }) as never }, 'pods.rows', { nodeId: 'n' });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid-output' } });
  });
});

describe('handleRequest: progress the contract refuses', () => {
  it('fails its call and stops its work, rather than throwing where the work sent it (a stream, a timer)', async () => {
    let stoppedBecause: unknown;
    const sent: unknown[] = [];
    const work = new AbortController();
    const result = await handleRequest(
      {
        // Like a journal follow: items sent from a data listener, here a timer's, where a throw would end the process.
        'node.journalFollow': (_input, call) =>
          new Promise((_, reject) => {
            setImmediate(() => call.progress({ lines: [{ message: 'ok' }] }));
            setImmediate(() => call.progress({ lines: [{ message: 'bad', pid: 1e20 }] }));
            setImmediate(() => call.progress({ lines: [{ message: 'after' }] }));
            call.signal.addEventListener('abort', () => reject((stoppedBecause = call.signal.reason)));
          }),
      },
      'node.journalFollow',
      { nodeId: 'n1', unit: 'kubelet' },
      { signal: work.signal, caller: new AbortController().signal, progress: (p) => sent.push(p), stop: (reason) => work.abort(reason) },
    );
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid-output', message: expect.stringMatching(/node\.journalFollow progress: lines\.0\.pid/) } });
    expect(stoppedBecause).toMatchObject({ code: 'invalid-output' });
    expect(sent).toEqual([{ lines: [{ message: 'ok' }] }]);
  });
});

describe('fake bridge', () => {
  it('answers through the same validation and delivers valid events only', async () => {
    const bridge = createFakeBridge({ 'pods.rows': () => ({ seq: 3, rows: [row] }) });
    await expect(bridge.request('pods.rows', { nodeId: 'n1' })).resolves.toEqual({ seq: 3, rows: [row] });
    await expect(bridge.request('pods.rows', { nodeId: '' })).rejects.toThrow(/nodeId is required/);
    const seen: string[] = [];
    const off = bridge.on('promptClosed', (d) => seen.push(d.id));
    bridge.emit('promptClosed', { id: 'p1' });
    expect(() => bridge.emit('promptClosed', { id: 7 as unknown as string })).toThrow(/id/);
    off();
    bridge.emit('promptClosed', { id: 'p2' });
    expect(seen).toEqual(['p1']);
    expect(bridge.calls.map((c) => c.name)).toEqual(['pods.rows', 'pods.rows']);
  });

  it("hands a subscription's items to its caller, and ends it when the caller cancels", async () => {
    let stopped: unknown = null;
    let send: ((batch: unknown) => void) | undefined;
    const bridge = createFakeBridge({
      'pods.watch': (_input, call) =>
        new Promise((_, reject) => {
          send = call.progress as (batch: unknown) => void;
          call.signal.addEventListener('abort', () => reject((stopped = call.signal.reason)));
        }),
    });
    const watching = new AbortController();
    const seqs: number[] = [];
    const watch = bridge.request('pods.watch', { nodeId: 'n1' }, { signal: watching.signal, onProgress: (d) => 'seq' in d && seqs.push(d.seq) });
    await expect.poll(() => send).toBeDefined();
    send!({ nodeId: 'n1', seq: 4, reset: false, upserts: [row], removals: [] });
    watching.abort();
    await expect(watch).rejects.toMatchObject({ code: 'cancelled' });
    expect(stopped).not.toBeNull();
    send!({ nodeId: 'n1', seq: 6, reset: false, upserts: [], removals: ['u1'] });
    expect(seqs).toEqual([4]);
  });
});

describe('naming and wire', () => {
  it('prefixes its IPC channels', () => {
    expect([CALL_CHANNEL, FRAME_CHANNEL]).toEqual(['nodescope:call', 'nodescope:frame']);
  });

  it('derives the bridge socket URL from the page URL and its token', () => {
    expect(bridgeSocketUrl('http://127.0.0.1:4711/?token=abc')).toBe('ws://127.0.0.1:4711/bridge?token=abc');
    expect(() => bridgeSocketUrl('http://127.0.0.1:4711/')).toThrow(/no token parameter/);
  });

  it('validateEvent rejects unknown events', () => {
    expect(() => validateEvent('nope' as never, {})).toThrow(/Unknown event/);
  });

  it('passes pod batches on as the core made and validated them, and validates every other progress', () => {
    const batch = { nodeId: 'n1', seq: 1, reset: false, upserts: [], removals: ['a'] };
    // The same object: not parsed again for each window that watches the node.
    expect(validateProgress('pods.watch', batch)).toBe(batch);
    expect(() => validateProgress('mask.preview', { done: -1, total: 3 })).toThrow(/Invalid|invalid mask.preview progress/);
    expect(() => validateProgress('pods.rows', {})).toThrow(/sends no progress/);
  });
});

function catchError(fn: () => unknown): ContractError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ContractError) return err;
    throw err;
  }
  throw new Error('expected a ContractError');
}
