import { describe, expect, it } from 'vitest';
import { answerIpcRequest } from './ipc-request';

const origin = 'nodescope://app';
const page = 'nodescope://app/index.html';

describe('answerIpcRequest', () => {
  const removed: string[] = [];
  const handlers = {
    'nodes.remove': ({ nodeId }: { nodeId: string }) => {
      removed.push(nodeId);
      return {};
    },
  };

  it('runs the handler for a valid request from the app page', async () => {
    expect(await answerIpcRequest(handlers, origin, page, 'nodes.remove', { nodeId: 'n1' })).toEqual({ ok: true, value: {} });
    expect(removed).toEqual(['n1']);
  });

  it('rejects invalid input with an error naming the field, before the handler runs', async () => {
    const result = await answerIpcRequest(handlers, origin, page, 'nodes.remove', { nodeId: '' });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(JSON.stringify(result)).toContain('nodeId');
    const unknown = await answerIpcRequest(handlers, origin, page, 'fs.write', {});
    expect(unknown).toMatchObject({ ok: false, error: { code: 'unknown-request' } });
    expect(removed).toEqual(['n1']);
  });

  it('refuses callers that are not our own pages', async () => {
    for (const frame of ['https://example.com/', 'file:///tmp/x.html', '']) {
      const result = await answerIpcRequest(handlers, origin, frame, 'nodes.remove', { nodeId: 'n2' });
      expect(result).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    }
    expect(removed).toEqual(['n1']);
  });
});
