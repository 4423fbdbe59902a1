/**
 * One vocabulary for which kubelet API a node is read from, in the app and the CLI: `api` is the Pods API
 * socket (`pods`), the REST API (`rest`) or the socket when the node has one, else REST (`auto`); `shape`
 * is the Pods API's wire shape (`shipped` as the kubelet ships it, `documented` as its KEP writes it),
 * which also says which socket path is looked for first. The CLI's older `--api shipped|documented` are
 * `pods` with that shape.
 */
import type { ApiChoice } from '../../contract/nodes';
import type { ApiShape } from '../../kubelet/pods-api-methods';
import { KUBELET_SOCKET_CANDIDATES } from '../../ssh/remote-socket-probe';

export const API_CHOICES = ['pods', 'rest', 'auto'] as const satisfies readonly ApiChoice[];
export const API_SHAPES = ['shipped', 'documented'] as const satisfies readonly ApiShape[];

/** The sockets looked for on a node, in order: the documented one first for the documented shape. */
export function socketCandidatesFor(shape: ApiShape | undefined): readonly string[] {
  return shape === 'documented' ? [...KUBELET_SOCKET_CANDIDATES].reverse() : KUBELET_SOCKET_CANDIDATES;
}

/** `--api` as typed: one of API_CHOICES, or a shape (its older spelling), which reads the Pods API in that shape. */
export function parseApiFlag(text: string): { api: ApiChoice; shape?: ApiShape } | undefined {
  if ((API_CHOICES as readonly string[]).includes(text)) return { api: text as ApiChoice };
  if ((API_SHAPES as readonly string[]).includes(text)) return { api: 'pods', shape: text as ApiShape };
  return undefined;
}
