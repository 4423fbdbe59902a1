/**
 * How a live node's link holds its pods (LivePod, livePodHolding), whole or rows only, and how it switches in
 * place between the two (PodHolding.again; docs/app.md, "Rows-only nodes").
 */
import { applyFieldMask, parseFieldMask, type FieldMask } from '../mask/field-mask';
import { MATRIX_READ_PATHS, matrixPodOf, type MatrixPod } from '../fleet/workload-matrix';
import { SharedValues } from '../util/shared-values';
import { decodeStored, isNotHeld, sameBytes, type PodBytes, type PodNotHeld } from '../pod/stored-pod';
import type { PodHolding } from '../kubelet/pod-watch';
import { ownBytes, type HeldPod } from '../kubelet/received-pod';
import type { PodRow } from '../contract';
import { pooledString, rowOfPod } from '../core/node-pods';

/**
 * A pod as a node's watch holds it and the core keeps it (one object for both): its identity, its wire
 * bytes, its row and what the fleet matrix reads of it; not its tree, which costs about six times its bytes
 * and is decoded again on demand. A rows-only node's holds no bytes (PodNotHeld): its whole object is read
 * from the node when opened.
 */
export type LivePod = HeldPod & (PodBytes | PodNotHeld) & { row: PodRow; matrix: MatrixPod };

/** The fields a live pod's row and matrix pod are taken from: all that is decoded of a new pod. */
let heldReads: FieldMask | undefined;
/** The matrix values the pods of every node share (a template's containers, a workload). */
const matrixValues = new SharedValues(10_000);

/** The pod as a rows-only node holds it: the same version's identity, digest, row and matrix pod, not its bytes. */
function rowsOnlyOf(pod: LivePod): LivePod {
  const { uid, namespace, name, digest, tombstone, maskHonoured, row, matrix } = pod;
  return { uid, namespace, name, digest, tombstone, ...(maskHonoured !== undefined ? { maskHonoured } : {}), notHeld: true, row, matrix };
}

/**
 * `localMask`: the mask the client applied as the pods arrived (the user's and the identity paths),
 * applied again when a pod is decoded; `shownMask`: the user's, which the row is taken through (as NodePods does);
 * `heldBytes`: the bytes kept already of a pod (NodeLinkRequest.heldBytes), kept again when they are the same;
 * `rowsOnly`: whether the node keeps rows only now (asked as its first pod arrives, then as it switches).
 */
export function livePodHolding(
  localMask: FieldMask | undefined,
  shownMask: FieldMask | null,
  heldBytes: ((uid: string) => Uint8Array | undefined) | undefined,
  rowsOnly: () => boolean,
): PodHolding<LivePod> {
  const keptBytes = (uid: string, bytes: Uint8Array) => {
    const held = heldBytes?.(uid);
    return held && sameBytes(held, bytes) ? held : ownBytes(bytes);
  };
  return {
    keep: (pod, bytes) => {
      const shown = shownMask ? applyFieldMask(pod.pod, shownMask) : pod.pod;
      const row = rowOfPod(shown, null, pod.uid);
      return {
        uid: pod.uid,
        namespace: pooledString(pod.namespace),
        name: pod.name,
        digest: pod.digest,
        tombstone: pod.tombstone,
        ...(pod.maskHonoured !== undefined ? { maskHonoured: pod.maskHonoured } : {}),
        ...(rowsOnly() ? { notHeld: true as const } : { bytes: keptBytes(pod.uid, bytes), ...(localMask ? { mask: localMask } : {}) }),
        row,
        matrix: matrixPodOf(shown, matrixValues, row),
      };
    },
    // Without its bytes a masked pod is compared by its digest: a change outside the mask a kubelet did not
    // apply then shows as a change with nothing visible changed, never as no change.
    tree: (pod) => (isNotHeld(pod) ? { digest: pod.digest } : decodeStored(pod).pod),
    reads: (heldReads ??= parseFieldMask(MATRIX_READ_PATHS.join(','))),
    // After a switch to rows only a whole pod drops its bytes; back to whole pods, a pod without them is read again.
    again: (pod) => (rowsOnly() ? (isNotHeld(pod) ? pod : rowsOnlyOf(pod)) : isNotHeld(pod) ? undefined : pod),
  };
}
