import { describe, expect, it } from 'vitest';
import type { ServerFrame } from '../app/contract';
import { openCallerConnection } from '../app/core/caller-connection';
import { receiveIpcFrame } from './ipc-request';

const origin = 'nodescope://app';
const page = 'nodescope://app/index.html';

describe('receiveIpcFrame', () => {
  const removed: string[] = [];
  const handlers = {
    'nodes.remove': ({ nodeId }: { nodeId: string }) => {
      removed.push(nodeId);
      return {};
    },
  };
  const sent: ServerFrame[] = [];
  let opened = 0;
  const connection = openCallerConnection({ handlers, subscribe: () => () => {} }, (frame) => sent.push(frame));
  const connect = () => (opened++, connection);
  const answer = async (frameUrl: string, id: number, name: string, input: unknown) => {
    expect(receiveIpcFrame(connect, origin, frameUrl, { type: 'request', id, name, input }, (frame) => sent.push(frame))).toBe(true);
    await expect.poll(() => sent.find((f) => f.type === 'response' && f.id === id)).toBeDefined();
    return (sent.find((f) => f.type === 'response' && f.id === id) as Extract<ServerFrame, { type: 'response' }>).result;
  };

  it('runs the handler for a valid request from the app page', async () => {
    expect(await answer(page, 1, 'nodes.remove', { nodeId: 'n1' })).toEqual({ ok: true, value: {} });
    expect(removed).toEqual(['n1']);
  });

  it('rejects invalid input with an error naming the field, before the handler runs; and what is no frame', async () => {
    const result = await answer(page, 2, 'nodes.remove', { nodeId: '' });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(JSON.stringify(result)).toContain('nodeId');
    expect(await answer(page, 3, 'fs.write', {})).toMatchObject({ ok: false, error: { code: 'unknown-request' } });
    expect(receiveIpcFrame(connect, origin, page, { type: 'exec', id: 4 }, () => {})).toBe(false);
    expect(removed).toEqual(['n1']);
  });

  it('refuses callers that are not our own pages, without a connection to send them events', async () => {
    const before = opened;
    for (const [i, frame] of ['https://example.com/', 'file:///tmp/x.html', ''].entries()) {
      expect(await answer(frame, 10 + i, 'nodes.remove', { nodeId: 'n2' })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    }
    expect(opened).toBe(before);
    expect(removed).toEqual(['n1']);
  });
});
