/**
 * The largest kubelet API message Nodescope accepts, from the kubelet or from a captured file: 10,000 pods
 * far exceed gRPC's usual 4 MiB, and a ListPods streamed pod by pod is not bound by it at all.
 */
export const MAX_MESSAGE_BYTES = 512 * 1024 * 1024;
