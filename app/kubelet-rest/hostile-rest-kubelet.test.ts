// The REST client against a kubelet port that accepts and then hangs, drips its answer (a slow loris), or
// answers with more than Nodescope accepts: each request fails within the call timeout, or at the limit,
// with what happened, the next step and the exit code a script can act on; none hangs for good.
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { exitCodeFor } from '../cli/cli-failure';
import { EXIT } from '../cli/exit-codes';
import { KubeletError } from '../kubelet/kubelet-error';
import { createKubeletRestClient } from './kubelet-rest-client';
import { createRestTransport } from './kubelet-rest-transport';
import type { NodeTcpChannel } from './node-tcp-channel';
import { startHostileRestKubelet, type HostileMode, type HostileRestKubelet } from './testing/hostile-rest-kubelet';

let kubelet: HostileRestKubelet | undefined;
afterEach(async () => {
  await kubelet?.stop();
  kubelet = undefined;
});

/** A channel straight to the port on this machine: what the SSH channel is to the node's loopback. */
function localChannel(port: number): NodeTcpChannel {
  return { open: async () => connect(port, '127.0.0.1'), activeMode: () => 'direct', lastError: () => null };
}

async function listFrom(mode: HostileMode, o: { tls?: boolean; bodyBytes?: number; maxBodyBytes?: number } = {}): Promise<KubeletError> {
  kubelet = await startHostileRestKubelet(mode, o.bodyBytes);
  const tls = o.tls ?? false;
  const transport = createRestTransport({
    channel: localChannel(kubelet.port),
    host: 'node-1',
    port: 10255,
    tls,
    credentials: {},
    trust: { pinsFile: '/nonexistent/kubelet_certificates', pinName: 'node-1:10255' },
    callTimeoutMs: 300,
    ...(o.maxBodyBytes ? { maxBodyBytes: o.maxBodyBytes } : {}),
  });
  const client = createKubeletRestClient({ transport, host: 'node-1', port: 10255, tls, credential: undefined, tokenAuth: false });
  const err = await client.listPods().then(
    () => new Error('/pods was read'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(KubeletError);
  return err as KubeletError;
}

describe('a kubelet REST port that does not answer', () => {
  it('fails a request the port takes and never answers', async () => {
    const err = await listFrom('silent');
    expect(err.code).toBe('NO_ANSWER');
    expect(err.message).toBe('The kubelet on node-1 port 10255 did not answer GET /pods: no answer within 0.3 s');
    expect(err.nextStep).toContain('journalctl -u kubelet');
    expect(exitCodeFor(err)).toBe(EXIT.api);
  });

  it('fails a TLS handshake the port never answers', async () => {
    const err = await listFrom('silent', { tls: true });
    expect(err.code).toBe('NO_ANSWER');
    expect(err.message).toBe('The kubelet on node-1 port 10255 did not answer the TLS handshake: no answer within 0.3 s');
  });

  it('fails headers dripped a byte at a time', async () => {
    const err = await listFrom('drips-headers');
    expect(err.code).toBe('NO_ANSWER');
    expect(err.message).toContain('did not answer GET /pods: no answer within 0.3 s');
  });

  it('fails a body dripped a byte at a time (a slow loris)', async () => {
    const err = await listFrom('drips-body');
    expect(err.code).toBe('NO_ANSWER');
    expect(err.message).toMatch(/did not answer GET \/pods: it sent only \d+ bytes of its answer in 0\.3 s: too slow to finish/);
  });
});

describe('a kubelet REST answer larger than the limit', () => {
  it.each(['large', 'large-chunked'] as const)('is refused as too large, not as unreachable (%s)', async (mode) => {
    const err = await listFrom(mode, { bodyBytes: 3 * 1024 * 1024, maxBodyBytes: 1024 * 1024 });
    expect(err.code).toBe('TOO_LARGE');
    expect(err.message).toBe(
      `The kubelet's answer to GET /pods on node-1 is ${mode === 'large' ? `${3 * 1024 * 1024} bytes` : 'more than 1 MiB'}, larger than the 1 MiB Nodescope accepts; it was not read`,
    );
    expect(err.nextStep).toContain('--api auto');
    expect(err.nextStep).not.toMatch(/retries/);
    expect(err.retryable).toBe(false);
    // The kubelet answered: exit 4, not 3 (unreachable).
    expect(exitCodeFor(err)).toBe(EXIT.api);
  });
});
