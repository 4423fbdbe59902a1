import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { networkInterfaces, tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ServerFrame } from '../contract';
import { MAX_UPLOAD_SIDECAR_CHARS } from '../contract/ws-wire';
import type { AppEvent } from '../core/app-event';
import type { ServedToTab } from './bridge-socket';
import { decodePod } from '../pod/decode';
import { streamPodsAsKubectlYaml } from '../pod/kubectl-yaml';
import { webPodBytes } from '../pod/testdata/handmade-pods';
import { readPodStream } from '../snapshot/open-pod-file';
import { startUiServer, type UiServer } from './ui-server';

// A small host: the transport is under test here, the real host has its own tests.
const listeners = new Set<(event: AppEvent) => void>();
const removed: string[] = [];
/** Each mask preview asked for: a job whose work goes on until its call is cancelled, and why it stopped. */
const previews: { mask: string; stopped?: unknown }[] = [];
/** Each pod watch: a subscription sending a big item every turn until its call is cancelled, and why it stopped. */
const watches: { nodeId: string; stopped?: unknown }[] = [];
const bigItem = { nodeId: 'busy', rows: 'x'.repeat(1024 * 1024) };
const host: ServedToTab = {
  handlers: {
    'nodes.remove': ({ nodeId }) => {
      removed.push(nodeId);
      return {};
    },
    'mask.preview': ({ mask }, call) =>
      new Promise((_, reject) => {
        const job: (typeof previews)[number] = { mask };
        previews.push(job);
        call.progress({ done: 0, total: 10 });
        call.signal.addEventListener('abort', () => reject((job.stopped = call.signal.reason)));
      }),
    'pods.watch': ({ nodeId }, call) =>
      new Promise((_, reject) => {
        const watch: (typeof watches)[number] = { nodeId };
        watches.push(watch);
        const flood = setInterval(() => call.progress(bigItem as never), 1);
        call.signal.addEventListener('abort', () => {
          clearInterval(flood);
          reject((watch.stopped = call.signal.reason));
        });
      }),
  },
  subscribe(listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
const emit = (event: AppEvent) => listeners.forEach((l) => l(event));

let server: UiServer;
let token: string;
/** Called once an upload's body has been read to its end, before the reader is done with it. */
let onBodyRead: (() => void) | undefined;
async function* tellWhenRead(chunks: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  yield* chunks;
  onBodyRead?.();
}
beforeAll(async () => {
  const rendererDir = mkdtempSync(join(tmpdir(), 'ns-ui-'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Nodescope</title>');
  writeFileSync(join(rendererDir, 'app.js'), 'export {};');
  server = await startUiServer({ host, rendererDir, openUpload: async (chunks, name) => `${name}: ${(await readPodStream(tellWhenRead(chunks), name)).kind}` });
  token = new URL(server.url).searchParams.get('token')!;
});
afterAll(() => server.close());

function get(path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, headers }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens a bridge socket; resolves with the socket or the HTTP status it was refused with. */
function open(query: string, origin: string | null = server.origin) {
  return new Promise<{ ws: WebSocket } | { status: number }>((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/bridge${query}`, origin ? { origin } : {});
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_req, res) => resolve({ status: res.statusCode! }));
    ws.once('error', reject);
  });
}

async function authed(): Promise<WebSocket> {
  const r = await open(`?token=${token}`);
  if (!('ws' in r)) throw new Error(`refused with ${r.status}`);
  return r.ws;
}

function nextMessage(ws: WebSocket): Promise<ServerFrame> {
  return new Promise((resolve) => ws.once('message', (data) => resolve(JSON.parse(data.toString()))));
}

describe('browser-mode server', () => {
  it('listens on loopback only and prints a URL carrying a 256-bit token', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/);
    const external = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal);
    if (external) {
      const refused = await new Promise<string>((resolve) => {
        const s = connect(server.port, external.address);
        s.once('connect', () => {
          s.destroy();
          resolve('connected');
        });
        s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
      });
      expect(refused).toBe('ECONNREFUSED');
    }
  });

  it('serves the renderer with the strict CSP naming its own socket', async () => {
    const res = await get(`/?token=${token}`, { host: `127.0.0.1:${server.port}` });
    expect(res.status).toBe(200);
    expect(res.body).toContain('<title>Nodescope</title>');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${server.port}`);
    expect(csp).not.toContain('unsafe-eval');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('refuses requests for another host name (DNS rebinding)', async () => {
    const res = await get('/', { host: `evil.example:${server.port}` });
    expect(res.status).toBe(421);
  });

  it('refuses the bridge without the token, with a wrong token, or from another origin', async () => {
    expect(await open('')).toEqual({ status: 401 });
    expect(await open('?token=')).toEqual({ status: 401 });
    expect(await open(`?token=${token.slice(0, -2)}AA`)).toEqual({ status: 401 });
    expect(await open(`?token=${token}`, 'http://evil.example')).toEqual({ status: 403 });
    expect(await open(`?token=${token}`, `http://localhost:${server.port}`)).toEqual({ status: 403 });
    expect(await open(`?token=${token}`, null)).toEqual({ status: 403 });
    expect(removed).toEqual([]);
  });

  it('refuses an upgrade whose request target is not a URL, and keeps serving', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const s = connect(server.port, '127.0.0.1', () => {
        s.write(`GET //[ HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n');
      });
      let text = '';
      s.on('data', (d) => (text += d));
      s.on('end', () => resolve(text));
      s.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 404 /);
    expect((await get(`/?token=${token}`, { host: `127.0.0.1:${server.port}` })).status).toBe(200);
  });

  it('answers a link with a wrong or no token with a page saying it is not valid and how to get one', async () => {
    const host = { host: `127.0.0.1:${server.port}` };
    for (const path of [`/?token=${token.slice(0, -2)}AA`, '/', `/index.html?token=stale`]) {
      const res = await get(path, host);
      expect(res.status, path).toBe(401);
      expect(res.body).toContain('This Nodescope link is not valid');
      expect(res.body).toContain('nodescope ui');
      expect(res.body).not.toContain(token);
    }
    // The app's own files are the public build: they load without the token.
    expect((await get('/app.js', host)).status).toBe(200);
  });

  it('asks for the token whatever spelling of the app page the request target uses', async () => {
    const host = { host: `127.0.0.1:${server.port}` };
    // Each of these reads index.html: percent-encoded, or a target no URL parser takes ('//[' is a bad host).
    for (const path of ['/%69ndex.html', '/index%2Ehtml', '//[/../index.html', '//[/..%2Findex.html']) {
      const res = await get(path, host);
      expect(res.status, path).not.toBe(200);
      expect(res.body, path).not.toContain('<title>Nodescope</title>');
    }
    expect((await get('/%69ndex.html', host)).body).toContain('This Nodescope link is not valid');
    expect(await get('//[', host)).toMatchObject({ status: 400, body: expect.stringContaining('nodescope ui') });
  });

  it('answers valid requests and names the bad field of invalid ones', async () => {
    const ws = await authed();
    ws.send(JSON.stringify({ type: 'request', id: 1, name: 'nodes.remove', input: { nodeId: 'n1' } }));
    expect(await nextMessage(ws)).toEqual({ type: 'response', id: 1, result: { ok: true, value: {} } });
    expect(removed).toEqual(['n1']);

    ws.send(JSON.stringify({ type: 'request', id: 2, name: 'nodes.remove', input: { nodeId: 7 } }));
    const invalid = await nextMessage(ws);
    expect(invalid).toMatchObject({ type: 'response', id: 2, result: { ok: false, error: { code: 'invalid-input' } } });
    expect(JSON.stringify(invalid)).toContain('nodeId');

    ws.send(JSON.stringify({ type: 'request', id: 3, name: 'shell.exec', input: {} }));
    expect(await nextMessage(ws)).toMatchObject({ id: 3, result: { ok: false, error: { code: 'unknown-request' } } });
    expect(removed).toEqual(['n1']);
    ws.close();
  });

  it("stops a page's job when the page cancels it, and every job of a page whose socket closed", async () => {
    const ws = await authed();
    const progress = nextMessage(ws);
    ws.send(JSON.stringify({ type: 'request', id: 1, name: 'mask.preview', input: { nodeId: 'n1', mask: 'status' } }));
    expect(await progress).toEqual({ type: 'progress', id: 1, progress: { done: 0, total: 10 } });
    ws.send(JSON.stringify({ type: 'cancel', id: 1 }));
    await expect.poll(() => previews.find((p) => p.mask === 'status')?.stopped).toMatchObject({ code: 'cancelled' });

    ws.send(JSON.stringify({ type: 'request', id: 2, name: 'mask.preview', input: { nodeId: 'n1', mask: 'spec' } }));
    ws.send(JSON.stringify({ type: 'request', id: 3, name: 'mask.preview', input: { nodeId: 'n1', mask: 'metadata' } }));
    await expect.poll(() => previews.length).toBe(3);
    ws.close();
    await expect.poll(() => previews.map((p) => (p.stopped as { message?: string } | undefined)?.message)).toEqual([
      'Its window cancelled it.',
      'Its window went away.',
      'Its window went away.',
    ]);
  });

  it('closes the socket on frames that are not contract requests, and runs nothing it sends after one', async () => {
    const ws = await authed();
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    ws.send('{not json');
    ws.send(JSON.stringify({ type: 'request', id: 1, name: 'nodes.remove', input: { nodeId: 'after-bad-frame' } }));
    expect(await closed).toBe(1008);
    expect(removed).not.toContain('after-bad-frame');
  });

  it('closes a socket that sends an oversized frame, and keeps serving others', async () => {
    const ws = await authed();
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    ws.send('x'.repeat(2 * 1024 * 1024));
    expect(await closed).toBe(1009);
    const other = await authed();
    other.send(JSON.stringify({ type: 'request', id: 9, name: 'nodes.remove', input: { nodeId: 'n9' } }));
    expect(await nextMessage(other)).toMatchObject({ id: 9, result: { ok: true } });
    other.close();
  });

  it("stops a page's work as soon as it fell too far behind, not only once its socket is gone", async () => {
    const ws = await authed();
    // The page stops reading (a frozen tab) while its subscription goes on sending.
    (ws as unknown as { _socket: { pause(): void } })._socket.pause();
    ws.send(JSON.stringify({ type: 'request', id: 1, name: 'pods.watch', input: { nodeId: 'busy' } }));
    await expect.poll(() => watches.find((w) => w.nodeId === 'busy')?.stopped).toMatchObject({ code: 'cancelled' });
    // What it asks for after being dropped is not started: nobody would read the answer.
    ws.send(JSON.stringify({ type: 'request', id: 2, name: 'pods.watch', input: { nodeId: 'late' } }));
    ws.send(JSON.stringify({ type: 'request', id: 3, name: 'nodes.remove', input: { nodeId: 'after-drop' } }));
    const other = await authed();
    other.send(JSON.stringify({ type: 'request', id: 4, name: 'nodes.remove', input: { nodeId: 'other' } }));
    await expect.poll(() => removed).toContain('other');
    expect(removed).not.toContain('after-drop');
    expect(watches.map((w) => w.nodeId)).toEqual(['busy']);
    ws.terminate();
    other.close();
  });

  it('forwards app events and drops malformed ones instead of passing them on', async () => {
    const ws = await authed();
    const first = nextMessage(ws);
    emit({ name: 'nodeRemoved', payload: { nodeId: 7 } as never });
    emit({ name: 'promptClosed', payload: { id: 'p1' } });
    // Events arrive in order: the first one to come is the good one when the bad one was dropped.
    expect(await first).toEqual({ type: 'event', name: 'promptClosed', payload: { id: 'p1' } });
    ws.close();
  });

  const post = (path: string, body: string, origin: string | null = server.origin) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, path, method: 'POST', headers: origin ? { origin } : {} }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      });
      req.on('error', reject);
      req.end(body);
    });

  it('takes an uploaded file from its own page with the token, streamed to the reader, and refuses anyone else', async () => {
    const pod = JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default', uid: 'u-1' } });
    expect(await post(`/upload?token=${token}&name=dir%2Fpod.json`, pod)).toEqual({ status: 200, body: JSON.stringify({ nodeId: 'pod.json: snapshot' }) });
    const bad = await post(`/upload?token=${token}&name=broken.json`, '{"kind":"Pod",');
    expect(bad.status).toBe(422);
    expect(JSON.parse(bad.body).error).toMatch(/broken\.json/);
    expect((await post(`/upload?name=pod.json`, pod)).status).toBe(401);
    expect((await post(`/upload?token=${token}&name=pod.json`, pod, 'http://evil.example')).status).toBe(403);
    expect((await post(`/upload?token=${token}`, pod)).status).toBe(400);
  });

  it('takes a sidecar up to its limit however long its characters are once encoded in the URL', async () => {
    const pod = JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default', uid: 'u-2' } });
    // Each '"' is 3 characters in the URL: a sidecar at the limit is 48 KiB of request line.
    const sidecar = encodeURIComponent('"'.repeat(MAX_UPLOAD_SIDECAR_CHARS));
    expect(await post(`/upload?token=${token}&name=pod.json&sidecar=${sidecar}`, pod)).toEqual({ status: 200, body: JSON.stringify({ nodeId: 'pod.json: snapshot' }) });
    const over = await post(`/upload?token=${token}&name=pod.json&sidecar=${sidecar}x`, pod);
    expect(over.status).toBe(413);
    expect(JSON.parse(over.body).error).toMatch(/sidecar/);
  });

  it('goes on answering the bridge while an uploaded YAML file is parsed', async () => {
    const ws = await authed();
    let yaml = '';
    streamPodsAsKubectlYaml(Array.from({ length: 300 }, () => decodePod(webPodBytes()).pod), (t) => (yaml += t));
    const order: string[] = [];
    const bodyRead = new Promise<void>((resolve) => (onBodyRead = resolve));
    const upload = post(`/upload?token=${token}&name=big.yaml`, yaml).then((r) => (order.push('upload'), r));
    // The whole file is in: only its parsing is left, and a request comes meanwhile.
    await bodyRead;
    onBodyRead = undefined;
    const answered = nextMessage(ws).then((m) => (order.push('bridge'), m));
    ws.send(JSON.stringify({ type: 'request', id: 11, name: 'nodes.remove', input: { nodeId: 'n11' } }));
    expect(await upload).toEqual({ status: 200, body: JSON.stringify({ nodeId: 'big.yaml: snapshot' }) });
    expect(await answered).toMatchObject({ id: 11, result: { ok: true } });
    expect(order).toEqual(['bridge', 'upload']);
    ws.close();
  });
});
