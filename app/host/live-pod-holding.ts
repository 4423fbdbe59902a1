/**
 * How a live node's link holds its pods (LivePod, livePodHolding), whole or rows only, and how it switches in
 * place between the two (PodHolding.again; docs/app.md, "Rows-only nodes").
 */
import { applyFieldMask, parseFieldMask, type FieldMask } from '../mask/field-mask';
import { MATRIX_READ_PATHS, matrixPodOf, type MatrixPod } from '../fleet/workload-matrix';
import { TemplateContainers } from '../core/template-containers';
import { ROW_READ_PATHS } from '../pod/view/pod-field-sources';
import { SharedValues } from '../util/shared-values';
import { decodeStored, isNotHeld, type PodBytes, type PodNotHeld } from '../pod/stored-pod';
import { sameBytes } from '../util/same-bytes';
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

/**
 * The fields a live pod's row and matrix pod are taken from: all that is decoded of a new pod. Without a mask
 * its containers are found by their bytes (TemplateContainers), so only the row's fields are decoded.
 */
let rowReads: FieldMask | undefined;
let matrixReads: FieldMask | undefined;
/** The matrix values the pods of every node share (a template's containers, a workload). */
const matrixValues = new SharedValues(10_000);
const templateContainers = new TemplateContainers(matrixValues);

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
      // A masked pod's containers are read from its masked tree, as the mask shows them.
      const matrix = shownMask
        ? matrixPodOf(shown, matrixValues, row)
        : matrixPodOf(shown, matrixValues, row, templateContainers.of(bytes, shown, `${pod.namespace}/${pod.name}`));
      const { uid, name, digest, tombstone } = pod;
      const namespace = pooledString(pod.namespace);
      // Written out, not spread from optional parts: this runs for every pod taken in.
      const held: LivePod = rowsOnly()
        ? { uid, namespace, name, digest, tombstone, notHeld: true, row, matrix }
        : { uid, namespace, name, digest, tombstone, bytes: keptBytes(uid, bytes), row, matrix };
      if (localMask && !isNotHeld(held)) held.mask = localMask;
      if (pod.maskHonoured !== undefined) held.maskHonoured = pod.maskHonoured;
      return held;
    },
    // Without its bytes a masked pod is compared by its digest: a change outside the mask a kubelet did not
    // apply then shows as a change with nothing visible changed, never as no change.
    tree: (pod) => (isNotHeld(pod) ? { digest: pod.digest } : decodeStored(pod).pod),
    reads: shownMask ? (matrixReads ??= parseFieldMask(MATRIX_READ_PATHS.join(','))) : (rowReads ??= parseFieldMask(ROW_READ_PATHS.join(','))),
    // After a switch to rows only a whole pod drops its bytes; back to whole pods, a pod without them is read again.
    again: (pod) => (rowsOnly() ? (isNotHeld(pod) ? pod : rowsOnlyOf(pod)) : isNotHeld(pod) ? undefined : pod),
  };
}
