// A kubelet that takes calls and never answers them (or stops in the middle of an answer) fails the call
// within the call timeout with what happened and what to check, instead of holding it forever.
import { afterEach, describe, expect, it } from 'vitest';
import { createPrivateSocketDir, type PrivateSocketDir } from '../ssh/private-socket-dir';
import { createKubeletClient, type KubeletClient } from './kubelet-client';
import { KubeletError } from './kubelet-error';
import { startUnansweringKubelet, type UnansweringKubelet } from './testing/unanswering-kubelet';

let dir: PrivateSocketDir | undefined;
let kubelet: UnansweringKubelet | undefined;
let client: KubeletClient | undefined;
afterEach(async () => {
  client?.close();
  await kubelet?.stop();
  dir?.remove();
});

async function unanswered(mode: 'silent' | 'stalls' | 'drips' | 'huge', call: (c: KubeletClient) => Promise<unknown>): Promise<KubeletError> {
  dir = createPrivateSocketDir('unanswering.sock');
  kubelet = await startUnansweringKubelet(dir.socketPath, mode);
  client = createKubeletClient({ target: dir.socketPath, socketPath: dir.socketPath, callTimeoutMs: 300 });
  const err = await call(client).then(
    () => new Error('the call was answered'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(KubeletError);
  return err as KubeletError;
}

describe('a kubelet that does not answer', () => {
  it.each([
    ['listPods', (c: KubeletClient) => c.listPods()],
    ['listPodBytes', (c: KubeletClient) => c.listPodBytes()],
    ['streamPodBytes', (c: KubeletClient) => c.streamPodBytes({ pod: () => {}, undecodable: () => {} })],
  ])('fails %s with NO_ANSWER and what to check', async (_name, call) => {
    const err = await unanswered('silent', call);
    expect(err.code).toBe('NO_ANSWER');
    expect(err.message).toMatch(/did not answer ListPods \(shipped API\) on .*unanswering\.sock: no answer within 0\.3 s/);
    expect(err.nextStep).toContain('journalctl -u kubelet');
    expect(err.nextStep).toContain('--call-timeout');
  });

  it('fails getPod with NO_ANSWER', async () => {
    const err = await unanswered('silent', (c) => c.getPod('00000000-0000-4000-8000-000000000001'));
    expect(err.code).toBe('NO_ANSWER');
    expect(err.message).toContain('GetPod');
  });

  it('fails a list the kubelet stops sending in the middle', async () => {
    const err = await unanswered('stalls', (c) => c.listPods());
    expect(err.code).toBe('NO_ANSWER');
    // The few bytes it sent may fall in the first window or before it.
    expect(err.message).toMatch(/it sent (nothing more for 0\.3 s in the middle of its answer|only 10 bytes of its answer in 0\.3 s)/);
  });

  it('fails a list the kubelet drips a byte at a time (a slow loris)', async () => {
    const err = await unanswered('drips', (c) => c.listPods());
    expect(err.code).toBe('NO_ANSWER');
    expect(err.message).toMatch(/it sent only \d+ bytes of its answer in 0\.3 s: too slow to finish/);
  });
});

describe('a ListPods answer larger than Nodescope holds at once', () => {
  it.each([
    ['listPods', (c: KubeletClient) => c.listPods()],
    ['listPodBytes', (c: KubeletClient) => c.listPodBytes()],
  ])('fails %s as TOO_LARGE as soon as the size is known, saying how to ask for less', async (_name, call) => {
    const err = await unanswered('huge', call);
    expect(err.code).toBe('TOO_LARGE');
    expect(err.message).toMatch(/ListPods answer on .*unanswering\.sock is 629145600 bytes, larger than the 512 MiB Nodescope holds at once/);
    expect(err.nextStep).toContain('--mask');
    expect(err.retryable).toBe(false);
  });
});
