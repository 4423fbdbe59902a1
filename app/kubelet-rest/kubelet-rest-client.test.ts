// The REST client's polled watch, fed /pods answers in turn (the simulator's JSON, one pod made not to fit
// part way): what the pod watch then holds and names is what the app and `nodescope watch` show. The
// simulator over SSH covers the rest (kubelet-rest-over-ssh.test.ts); it cannot turn a pod bad mid-run.
import { afterEach, describe, expect, it } from 'vitest';
import { startPodWatch, type PodWatch, type WatchState } from '../kubelet/pod-watch';
import { eventually } from '../kubelet/testing/oracle';
import type { PodObject, PodTree } from '../pod/pod-tree';
import { podListJson } from '../sim/kubelet-rest-server';
import { PodGenerator } from '../sim/pod-generator';
import { createKubeletRestClient } from './kubelet-rest-client';
import type { RestTransport } from './kubelet-rest-transport';

const watches: PodWatch[] = [];
afterEach(async () => {
  await Promise.all(watches.splice(0).map((w) => w.close()));
});

/** /pods as the kubelet answers it now: `body` is what the next poll reads. */
function kubeletAnswering(first: string) {
  let body = first;
  const transport: RestTransport = { get: async () => ({ status: 200, body: Buffer.from(body) }), fingerprint: () => undefined };
  const client = createKubeletRestClient({ transport, host: 'node-1', port: 10250, tls: true, credential: undefined, tokenAuth: false, pollIntervalMs: 20 });
  return { client, answer: (next: string) => (body = next) };
}

/** The /pods body with `bad` served with a status of the wrong type, as a buggy kubelet might. */
function withMisfit(pods: PodTree[], bad: PodTree): string {
  const list = JSON.parse(podListJson(pods)) as { items: { metadata: { uid: string }; status?: unknown }[] };
  for (const item of list.items) if (item.metadata.uid === (bad.metadata as PodObject).uid) item.status = 'cut short';
  return JSON.stringify(list);
}

describe('the REST watch with a pod that stops fitting the pod schema', () => {
  it('keeps the pod as last read and names it; once it is gone, it is deleted and no longer named', async () => {
    const generator = new PodGenerator({ seed: 8, nodeName: 'n' });
    const pods = Array.from({ length: 3 }, () => generator.existing(Date.now()));
    const [uid0, uid1, uid2] = pods.map((p) => (p.metadata as PodObject).uid as string);
    const { namespace, name } = pods[1]!.metadata as PodObject;
    const kubelet = kubeletAnswering(podListJson(pods));
    let state: WatchState | undefined;
    const w = startPodWatch(kubelet.client, { state: (s) => (state = s) });
    watches.push(w);
    await eventually(() => state?.state === 'live', 'the first poll');
    expect([...w.held().keys()].sort()).toEqual([uid0, uid1, uid2].sort());
    const leftOut = () => (state?.state === 'live' ? state.leftOut : undefined);
    expect(leftOut()).toEqual([]);

    kubelet.answer(withMisfit(pods, pods[1]!));
    await eventually(() => leftOut()?.length === 1, 'the pod that no longer fits to be named');
    expect(leftOut()![0]).toBe(
      `left out a pod that does not decode: cannot decode pod ${namespace as string}/${name as string} (/pods items[1], uid ${uid1}): does not fit the pod schema: expected an object (PodStatus), found string "cut short" (in status)`,
    );
    // Shown as last read, as the Pods API watch keeps a pod whose change does not decode.
    expect([...w.held().keys()].sort()).toEqual([uid0, uid1, uid2].sort());

    kubelet.answer(podListJson([pods[0]!, pods[2]!]));
    await eventually(() => !w.held().has(uid1!), 'the pod to be deleted');
    expect(leftOut()).toEqual([]);
  });
});
