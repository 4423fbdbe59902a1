/**
 * The simulated kubelet's ListPods of 5,000 pods, served from encodings made in advance (encoded-pods.ts),
 * against encoding those 5,000 pods once in the same process: what every list would cost without the cache.
 * Target: a whole list, gRPC and socket included, in at most half the time of encoding it (the tests check
 * only that a list encodes nothing; this checks that it pays off).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, credentials } from '@grpc/grpc-js';
import { encodePod } from '../app/pod/encode';
import { startSimulatedKubelet } from '../app/sim/kubelet-server';
import { figure } from './figures';
import { measureAsync } from './measure';

export async function simListBench(): Promise<boolean> {
  const dir = await mkdtemp(join(tmpdir(), 'nodescope-bench-sim-'));
  const kubelet = await startSimulatedKubelet({ socketPath: join(dir, 'kubelet.sock'), pods: 5000, seed: 7, rateLimit: { qps: 1e6, burst: 1e6 } });
  const client = new Client(`unix:${kubelet.sockets.shipped}`, credentials.createInsecure(), { 'grpc.max_receive_message_length': -1 });
  try {
    console.log('\nsimulated kubelet: ListPods of 5,000 pods, against encoding the same pods once');
    const list = () =>
      new Promise<void>((resolve, reject) =>
        client.makeUnaryRequest('/v1alpha1.Pods/ListPods', () => Buffer.alloc(0), (b: Buffer) => b, undefined, (err) => (err ? reject(err) : resolve())),
      );
    const pods = kubelet.store.uids().map((uid) => kubelet.store.entry(uid)!.pod);
    const listMs = await measureAsync(list, { runs: 9, warmup: 2 });
    const encodeMs = await measureAsync(async () => void pods.forEach((pod) => encodePod(pod)), { runs: 9, warmup: 2 });
    return figure('ListPods 5,000 pods, cached', listMs, 'ms', { baseline: encodeMs, target: { maxRatio: 0.5 } });
  } finally {
    client.close();
    await kubelet.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
