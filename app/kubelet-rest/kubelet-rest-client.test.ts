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
  const transport: RestTransport = {
    get: async () => ({ status: 200, body: Buffer.from(body) }),
    stream: () => Promise.reject(new Error('the watch reads /pods whole')),
    fingerprint: () => undefined,
  };
  const client = createKubeletRestClient({ transport, host: 'node-1', port: 10250, tls: true, credential: undefined, tokenAuth: false, pollIntervalMs: 20 });
  return { client, answer: (next: string) => (body = next) };
}

/** The /pods body with `bad` served with a status (or its uid) of the wrong type, as a buggy kubelet might. */
function withMisfit(pods: PodTree[], bad: PodTree, field: 'status' | 'uid' = 'status'): string {
  const list = JSON.parse(podListJson(pods)) as { items: { metadata: { uid: unknown }; status?: unknown }[] };
  for (const item of list.items) {
    if (item.metadata.uid !== (bad.metadata as PodObject).uid) continue;
    if (field === 'status') item.status = 'cut short';
    else item.metadata.uid = 42;
  }
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

  it('keeps a pod whose uid is what does not fit, found by its name, and names it once however /pods moves', async () => {
    const generator = new PodGenerator({ seed: 9, nodeName: 'n' });
    const pods = Array.from({ length: 3 }, () => generator.existing(Date.now()));
    const uids = pods.map((p) => (p.metadata as PodObject).uid as string);
    const kubelet = kubeletAnswering(podListJson(pods));
    const named: string[][] = [];
    let state: WatchState | undefined;
    const w = startPodWatch(kubelet.client, {
      state: (s) => {
        state = s;
        if (s.state === 'live' && s.leftOut.join() !== named.at(-1)?.join()) named.push([...s.leftOut]);
      },
    });
    watches.push(w);
    await eventually(() => state?.state === 'live', 'the first poll');

    kubelet.answer(withMisfit(pods, pods[2]!, 'uid'));
    await eventually(() => named.at(-1)?.length === 1, 'the pod whose uid does not fit to be named');
    expect(named.at(-1)![0]).toMatch(/\(\/pods items\[2\]\): does not fit the pod schema: .*\(in metadata\.uid\)$/);
    // Not taken for deleted: its uid did not come, its namespace/name did.
    expect([...w.held().keys()].sort()).toEqual([...uids].sort());

    // Another pod goes: the misfit is now items[1], the same pod with the same fault, and is not named again.
    kubelet.answer(withMisfit([pods[1]!, pods[2]!], pods[2]!, 'uid'));
    await eventually(() => !w.held().has(uids[0]!), 'the other pod to be deleted');
    await new Promise((r) => setTimeout(r, 100));
    expect(named).toHaveLength(2);
    expect([...w.held().keys()].sort()).toEqual([uids[1]!, uids[2]!].sort());
  });
});
