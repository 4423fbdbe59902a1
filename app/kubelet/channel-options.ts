import type { ChannelOptions } from '@grpc/grpc-js';

/**
 * grpc-js channel options for the kubelet over SSH (spike report §5, §9):
 * - a 16 MiB HTTP/2 window, or every 64 KiB costs one round trip (ListPods 1000 at 50 ms RTT: 5.2 s vs 0.28 s);
 * - 512 MiB messages, as 10,000 pods far exceed the 4 MiB default;
 * - reconnect backoff capped at 10 s instead of 120 s, so a node that comes back is seen soon;
 * - no HTTP proxy (the target is a local socket) and no gRPC keepalive (SSH keeps the link alive,
 *   and the kubelet's Go server would answer frequent pings with GOAWAY too_many_pings).
 */
/** The largest Pods API message Nodescope accepts, from the kubelet or from a captured file. */
export const MAX_MESSAGE_BYTES = 512 * 1024 * 1024;

export const KUBELET_CHANNEL_OPTIONS: ChannelOptions = {
  'grpc-node.flow_control_window': 16 * 1024 * 1024,
  'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
  'grpc.max_reconnect_backoff_ms': 10_000,
  'grpc.enable_http_proxy': 0,
  'grpc.keepalive_time_ms': -1,
  // Each client its own HTTP/2 connection: a slow watcher never shares flow control with another client.
  'grpc.use_local_subchannel_pool': 1,
};
