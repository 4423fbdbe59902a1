/**
 * The Pods API's three methods, in either wire shape, as the paths the client calls (app/grpc). Requests are
 * framed by hand (pods-api-framing.ts) and responses stay raw bytes (parsed by pods-api-messages), so pods
 * reach decodePod untouched and unknown fields survive.
 */
export type ApiShape = 'shipped' | 'documented';
export const API_SHAPES: readonly ApiShape[] = ['shipped', 'documented'];

export const SERVICE_PREFIX: Record<ApiShape, string> = {
  shipped: '/v1alpha1.Pods',
  documented: '/Pods',
};

export function podsApiMethods(shape: ApiShape) {
  const prefix = SERVICE_PREFIX[shape];
  return {
    ListPods: `${prefix}/ListPods`,
    GetPod: `${prefix}/GetPod`,
    WatchPods: `${prefix}/WatchPods`,
  };
}
