/**
 * Where every kubelet since 1.28 serves the PodResources API (under the default --root-dir). Apart from the
 * API's schema, so naming the socket does not load protobufjs: a CLI start stays light.
 */
export const POD_RESOURCES_SOCKET = '/var/lib/kubelet/pod-resources/kubelet.sock';
