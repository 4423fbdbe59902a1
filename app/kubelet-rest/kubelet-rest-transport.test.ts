// A kubelet that hangs up before answering, through a channel that closes with it (an `ssh -W` that exits, an
// ssh2 channel whose far end went away): the request fails saying so, and Node's pool of HTTP parsers is left
// sound. Node emits the hang-up while it still holds the response's parser; destroying the request from inside
// that emit closed the TLS socket at once and freed the parser first, so it went back to the pool twice and two
// later connections shared it: the process died on a native assertion in whichever server or client came next.
import { createRequire } from 'node:module';
import { connect, createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Duplex } from 'node:stream';
import { createServer, type Server } from 'node:tls';
import { afterEach, expect, it } from 'vitest';
import { KubeletError } from '../kubelet/kubelet-error';
import { selfSignedServingCertificate } from '../sim/kubelet-pki';
import { createRestTransport } from './kubelet-rest-transport';

/** Node's free list of HTTP parsers (a legacy module, still public): every parser in it must be there once. */
const { parsers } = createRequire(import.meta.url)('_http_common') as { parsers: { list: object[] } };

let server: Server | TcpServer | undefined;
afterEach(() => server?.close());

/** A channel to the port as a JS stream, as an SSH channel is, that closes as soon as the far end has ended it. */
function channelTo(port: number): Duplex {
  const tcp = connect(port, '127.0.0.1');
  const channel = new Duplex({
    read: () => void tcp.resume(),
    write: (chunk: Buffer, _encoding, done) => void tcp.write(chunk, done),
    final: (done) => (tcp.end(), done()),
    destroy: (err, done) => (tcp.destroy(), done(err)),
  });
  tcp.on('data', (chunk: Buffer) => channel.push(chunk) || tcp.pause());
  tcp.on('end', () => channel.push(null));
  tcp.on('error', (err) => channel.destroy(err));
  channel.once('end', () => channel.destroy());
  return channel;
}

it('fails a request the kubelet hangs up on, and leaves no HTTP parser to two connections', async () => {
  const serving = await selfSignedServingCertificate('node-1');
  // Takes the handshake and the request, then drops the connection without a word.
  server = createServer({ cert: serving.certPem, key: serving.keyPem }, (socket) => socket.once('data', () => socket.destroy()));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const transport = createRestTransport({
    channel: { open: async () => channelTo(port), activeMode: () => 'direct', lastError: () => null },
    host: 'node-1',
    port,
    tls: true,
    credentials: {},
    trust: { pinsFile: join(tmpdir(), 'nodescope-no-pins-here'), pinName: `node-1:${port}`, prompt: async () => 'once' },
  });
  const before = parsers.list.length;

  const err = await transport.get('/pods').then(() => new Error('/pods was read'), (e: unknown) => e);
  expect(err).toBeInstanceOf(KubeletError);
  expect((err as KubeletError).message).toBe(`The kubelet on node-1 port ${port} did not answer GET /pods: it closed the connection without an answer`);
  expect((err as KubeletError).retryable).toBe(true);

  await new Promise((resolve) => setImmediate(resolve));
  // The request's parser went back once.
  expect(parsers.list.length).toBe(before + 1);
  expect(new Set(parsers.list).size).toBe(parsers.list.length);
});

it('fails a follow at once, as worth retrying, when its channel closes during the TLS handshake without ending', async () => {
  // As an ssh2 channel whose connection dropped: closed, no end of its stream; the kubelet has not answered yet.
  let channel: Duplex | undefined;
  server = createTcpServer((socket) => socket.once('data', () => channel!.destroy()));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const transport = createRestTransport({
    channel: { open: async () => (channel = channelTo(port)), activeMode: () => 'direct', lastError: () => null },
    host: 'node-1',
    port,
    tls: true,
    credentials: {},
    callTimeoutMs: 5000,
    trust: { pinsFile: join(tmpdir(), 'nodescope-no-pins-here'), pinName: `node-1:${port}`, prompt: async () => 'once' },
  });
  const err = await transport.stream('/containerLogs/default/web-0/web?follow=true', { quiet: true, paced: true }).then(() => new Error('the follow began'), (e: unknown) => e);
  expect(err).toBeInstanceOf(KubeletError);
  expect((err as KubeletError).message).toBe(`The kubelet on node-1 port ${port} did not answer the TLS handshake: the connection closed before it ended`);
  expect((err as KubeletError).retryable).toBe(true);
});
