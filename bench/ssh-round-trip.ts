// Measures request/response latency through the transport's stream (an SSH channel) against a real sshd (run as root):
//   node bin/run-ts.js bench/ssh-round-trip.ts
// Each round sends a small request; the stand-in answers in two writes a millisecond apart, like
// an HTTP/2 server sending HEADERS, then DATA. With sshd's Nagle left on, the second part waits
// for the client's delayed ACK (~40 ms); with setNoDelay + the exec nudge it does not.
import { readFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { Client } from 'ssh2';
import type { Duplex } from 'node:stream';
import { startSshHarness } from '../e2e/harness/ssh-harness';
import { openKubeletTransport } from '../app/ssh/kubelet-transport';
import { harnessHop, harnessTarget, scriptedPrompter } from '../app/ssh/testing/ssh-test-kit';

const ROUNDS = 100;
const REQUEST = Buffer.alloc(48, 1);
const PART = Buffer.alloc(48, 2);

/** Answers every request with two writes, 1 ms apart. */
async function startTwoPartResponder(socketPath: string): Promise<{ stop(): Promise<void> }> {
  const server = createServer((sock) => {
    sock.on('error', () => {});
    sock.on('data', () => {
      sock.write(PART);
      setTimeout(() => sock.write(PART), 1);
    });
  });
  await new Promise<void>((r) => server.listen(socketPath, r));
  return { stop: () => new Promise<void>((r) => server.close(() => r())) };
}

async function measure(stream: Duplex | Socket): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = process.hrtime.bigint();
    await new Promise<void>((resolve) => {
      let got = 0;
      const onData = (d: Buffer) => {
        got += d.length;
        if (got >= PART.length * 2) {
          stream.off('data', onData);
          resolve();
        }
      };
      stream.on('data', onData);
      stream.write(REQUEST);
    });
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return times.sort((a, b) => a - b);
}

const report = (label: string, t: number[]) =>
  console.log(`${label.padEnd(44)} median ${t[t.length >> 1]!.toFixed(2)} ms   p90 ${t[Math.floor(t.length * 0.9)]!.toFixed(2)} ms`);

/** The same path with neither fix: plain ssh2 streamlocal, Nagle on at both ends. */
function unfixedStream(h: Awaited<ReturnType<typeof startSshHarness>>): Promise<{ stream: Duplex; end(): void }> {
  return new Promise((resolve, reject) => {
    const c = new Client();
    c.once('error', reject);
    c.once('ready', () =>
      c.openssh_forwardOutStreamLocal(h.socketPath, (err, ch) => (err ? reject(err) : resolve({ stream: ch, end: () => c.end() }))),
    );
    c.connect({ host: h.host, port: h.port, username: 'root', privateKey: readFileSync(h.root.key) });
  });
}

const h = await startSshHarness({ startKubelet: startTwoPartResponder });
try {
  const cases = [
    ['root, streamlocal', harnessTarget(h, h.root)],
    ['operator, sudo socat bridge', harnessTarget(h, h.operator)],
    ['root via ProxyJump, streamlocal', harnessTarget(h, h.root, { proxyJump: [harnessHop(h, h.jump, h.jumpPort)] })],
  ] as const;
  for (const [label, target] of cases) {
    const t = await openKubeletTransport(target, { socketPath: h.socketPath, prompter: scriptedPrompter() });
    const sock = await t.open();
    await measure(sock); // warm-up: connection, nudge, channel
    report(`transport stream, ${label}`, await measure(sock));
    sock.destroy();
    await t.close();
  }
  const raw = await unfixedStream(h);
  report('plain ssh2 streamlocal, no Nagle fixes (root)', await measure(raw.stream));
  raw.end();
} finally {
  await h.stop();
}
