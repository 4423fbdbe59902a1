/**
 * A node's pods for the CLI's table, counted on a terminal's stderr as they arrive (list-progress.ts):
 * over SSH a 30,000-pod node takes many seconds to list. Without a mask the pods come through
 * streamPodBytes and are decoded as they arrive; a mask needs listPods, as the kubelet may apply it.
 */
import type { KubeletClient } from '../kubelet/kubelet-client';
import { podReader, type ReceivedPod } from '../kubelet/received-pod';
import { PodDecodeError } from '../pod/decode';
import type { FieldMask } from '../mask/field-mask';
import { listProgress } from './list-progress';

export async function listPodsWithProgress(client: KubeletClient, mask: FieldMask | undefined): Promise<{ pods: ReceivedPod[]; undecodable: PodDecodeError[]; maskHonoured: boolean | undefined }> {
  if (mask) return client.listPods();
  // The table is printed once the list is in and the progress erased: the terminal may show both.
  const progress = listProgress(true);
  const reader = podReader(undefined);
  const pods: ReceivedPod[] = [];
  const undecodable: PodDecodeError[] = [];
  try {
    await client.streamPodBytes({
      pod: (bytes, offset) => {
        const label = `ListPods pods[${pods.length + undecodable.length}] at byte ${offset}`;
        try {
          // The bytes are only lent for the call: they are decoded now, and a ReceivedPod keeps only their digest.
          pods.push(reader.read(bytes, label));
        } catch (err) {
          // One pod that does not decode must not hide the others: it is named, the rest are shown.
          if (!(err instanceof PodDecodeError)) throw err;
          undecodable.push(err);
        }
        progress.pod();
      },
      undecodable: (err) => undecodable.push(err),
    });
  } finally {
    progress.done();
  }
  return { pods, undecodable, maskHonoured: undefined };
}
