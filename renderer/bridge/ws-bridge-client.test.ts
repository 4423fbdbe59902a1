import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { handleRequest } from '../../app/contract/handle-request';
import { ClientFrameSchema } from '../../app/contract/jobs';
import { createWsBridge, type SocketLike, type WsBridge } from './ws-bridge-client';

// A real WebSocket server speaking the contract's framing, as browser mode's server does.
function startServer(port = 0) {
  const wss = new WebSocketServer({ host: '127.0.0.1', port });
  wss.on('connection', (ws) => {
    ws.on('message', async (data) => {
      const msg = ClientFrameSchema.parse(JSON.parse(String(data)));
      if (msg.type !== 'request') return;
      const result = await handleRequest({ 'mask.validate': ({ mask }) => ({ ok: true, paths: mask.split(',') }) }, msg.name, msg.input);
      ws.send(JSON.stringify({ type: 'response', id: msg.id, result }));
      ws.send(JSON.stringify({ type: 'event', name: 'promptClosed', payload: { id: 'p-after-' + msg.id } }));
    });
  });
  return new Promise<{ wss: WebSocketServer; port: number }>((resolve) =>
    wss.on('listening', () => resolve({ wss, port: (wss.address() as { port: number }).port })),
  );
}

const connect = (url: string) => new WebSocket(url) as unknown as SocketLike;
let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanup.splice(0)) c();
});

describe('WebSocket bridge client', () => {
  it('sends requests, resolves answers, rejects errors with the host message, and delivers events', async () => {
    const { wss, port } = await startServer();
    const bridge: WsBridge = createWsBridge(`ws://127.0.0.1:${port}/bridge?token=t`, connect);
    cleanup.push(() => bridge.close(), () => wss.close());
    const closed: string[] = [];
    bridge.on('promptClosed', ({ id }) => closed.push(id));
    // Sent before the socket opened: queued, not lost.
    await expect(bridge.request('mask.validate', { mask: 'metadata,status' })).resolves.toEqual({ ok: true, paths: ['metadata', 'status'] });
    await expect(bridge.request('nodes.connect', { nodeId: '' })).rejects.toThrow(/nodeId is required/);
    expect(closed[0]).toBe('p-after-1');
  });

  it('fails requests in flight when the server goes away, then reconnects by itself', async () => {
    const first = await startServer();
    first.wss.removeAllListeners('connection');
    const bridge = createWsBridge(`ws://127.0.0.1:${first.port}/bridge?token=t`, connect);
    cleanup.push(() => bridge.close());
    const statuses: string[] = [];
    bridge.onStatus((s) => statuses.push(s));
    await new Promise((r) => setTimeout(r, 100));
    const pending = bridge.request('mask.validate', { mask: 'spec' });
    await new Promise((r) => setTimeout(r, 50));
    for (const client of first.wss.clients) client.terminate();
    await expect(pending).rejects.toThrow(/Lost the connection/);
    first.wss.close();
    const second = await startServer(first.port);
    cleanup.push(() => second.wss.close());
    await expect(bridge.request('mask.validate', { mask: 'spec' })).resolves.toEqual({ ok: true, paths: ['spec'] });
    expect(statuses).toContain('open');
  });
});
