import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Status } from '@grpc/grpc-js/build/src/constants.js';
import { describe, expect, it } from 'vitest';
import { createGrpcConnection } from '../grpc/connection';
import { localSocketDialer } from '../grpc/stream-dialer';
import { ListPodsResponseReader, streamListPods } from './list-pods-stream';
import { writeListPodsResponse } from './testing/pods-api-writers';

/** A gRPC message: the 5-byte prefix (uncompressed, length), then the message. */
function grpcMessage(message: Uint8Array): Buffer {
  const prefix = Buffer.alloc(5);
  prefix.writeUInt32BE(message.length, 1);
  return Buffer.concat([prefix, message]);
}

describe('ListPodsResponseReader', () => {
  const pods = [Buffer.from('first pod'), Buffer.alloc(300, 7), Buffer.alloc(0), Buffer.from('last')];
  const wire = grpcMessage(writeListPodsResponse(pods));

  it.each([1, 2, 3, 7, 64, wire.length])('hands on every pod whole however the bytes are cut (chunks of %i)', (size) => {
    const got: Buffer[] = [];
    const reader = new ListPodsResponseReader((b) => got.push(Buffer.from(b)));
    for (let i = 0; i < wire.length; i += size) reader.push(wire.subarray(i, i + size));
    expect(got).toEqual(pods);
    expect(reader.complete()).toBe(true);
  });

  it('skips fields it does not know, and tells a cut-off response from a whole one', () => {
    // Field 2 (varint 150) and field 3 (bytes) around the pods: a newer kubelet's response.
    const extra = Buffer.concat([Buffer.from([0x10, 0x96, 0x01]), writeListPodsResponse(pods), Buffer.from([0x1a, 0x02, 0x61, 0x62])]);
    const got: Buffer[] = [];
    const reader = new ListPodsResponseReader((b) => got.push(Buffer.from(b)));
    const whole = grpcMessage(extra);
    reader.push(whole.subarray(0, whole.length - 3));
    expect(reader.complete()).toBe(false);
    reader.push(whole.subarray(whole.length - 3));
    expect(got).toEqual(pods);
    expect(reader.complete()).toBe(true);
  });

  it('refuses a field that claims more bytes than its message has', () => {
    const reader = new ListPodsResponseReader(() => {});
    expect(() => reader.push(grpcMessage(Buffer.from([0x0a, 0x10, 0x61])))).toThrowError(/longer than its message/);
  });
});

describe('streamListPods', () => {
  it('calls a connection that closes before any answer UNAVAILABLE, not a status from the kubelet', async () => {
    // What a bridge on the node that fails at once looks like from here: the socket accepts, then ends.
    const dir = await mkdtemp(join(tmpdir(), 'nodescope-list-stream-'));
    const path = join(dir, 'closes.sock');
    const server = createServer((s) => {
      s.on('error', () => {});
      s.resume();
      s.end();
    });
    await new Promise<void>((r) => server.listen(path, r));
    try {
      const connection = createGrpcConnection({ dial: localSocketDialer(`unix://${path}`) });
      const err = (await streamListPods(connection, '/v1alpha1.Pods/ListPods', { pod: () => {} }).catch((e: unknown) => e)) as { code: number; details: string };
      connection.close();
      expect(err.code).toBe(Status.UNAVAILABLE);
      expect(err.details).toContain('the connection closed before /v1alpha1.Pods/ListPods had a status');
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
      await rm(dir, { recursive: true, force: true });
    }
  });
});
