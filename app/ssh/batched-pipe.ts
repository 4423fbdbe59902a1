import { finished, type Readable, type Writable } from 'node:stream';

/**
 * Pipes `from` into `to` like stream.pipeline, but writes everything that arrived during one turn of
 * the event loop as one corked write (a single writev). The SSH channel delivers one chunk per SSH
 * packet, and a watch's events arrive one or two to a packet: forwarded one by one, each costs a write
 * on our side and a wake-up and read in grpc-js, in the thread that also decodes the pods. Batching
 * costs at most one loop turn of latency. `done` is called once: with null when `from` ended and
 * everything was handed to `to`, else with the error (or premature close) of either side. Unlike
 * stream.pipeline it destroys nothing: on an error the caller destroys both (the forwarder does).
 */
export function batchedPipe(from: Readable, to: Writable, done: (err: NodeJS.ErrnoException | null) => void): void {
  let pending: Buffer[] = [];
  let scheduled = false;
  let settled = false;
  let fromEnded = false;
  const settle = (err: NodeJS.ErrnoException | null) => {
    if (settled) return;
    settled = true;
    done(err);
  };

  const flush = () => {
    scheduled = false;
    const chunks = pending;
    pending = [];
    if (chunks.length === 0 || to.writableEnded || to.destroyed) return;
    to.cork();
    let room = true;
    for (const chunk of chunks) room = to.write(chunk) && room;
    to.uncork();
    if (!room) {
      // The reader fell behind: stop taking SSH data until it catches up (ssh2 then holds its window).
      from.pause();
      to.once('drain', () => from.resume());
    }
  };

  from.on('data', (chunk: Buffer) => {
    pending.push(chunk);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  });
  from.once('end', () => {
    fromEnded = true;
    flush();
    to.end();
  });
  finished(from, { writable: false }, (err) => err && settle(err));
  // Only `to`'s writing side is ours: its reading side belongs to the pipe in the other direction.
  // A destination finished before the source ended was closed under us: what follows would be lost.
  finished(to, { readable: false }, (err) => settle(err ?? (fromEnded ? null : Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }))));
}
