/**
 * What a kubelet REST answer other than 200 means, as a KubeletError that names the cause and the
 * next step: the credential that was tried (401), the RBAC rule that is missing (403), an authorizer
 * that cannot reach the API server (the kubelet's 500 "Authorization error"), or an unexpected status.
 */
import { KubeletError } from '../kubelet/kubelet-error';

export interface RestErrorContext {
  /** e.g. `https://127.0.0.1:10250/pods on node-1`. */
  where: string;
  /** The credential sent, in words (never its value), or undefined for none. */
  credential: string | undefined;
  /** Whether the credential is a bearer token (checked by the API server, so it fails with the control plane). */
  tokenAuth: boolean;
}

const WHAT_WORKS =
  'The Pods API socket works without the control plane (--api auto or --api pods); so do the read-only port 10255 where it is enabled, and credentials the kubelet authorized in the last 5 minutes (its cache).';

/** `(user=..., verb=get, resource=nodes, subresource=proxy)` from the kubelet's message. */
function attributes(body: string): { user?: string; subresource?: string } {
  const m = /\(user=([^,]*), verb=[^,]*, resource=[^,]*, subresource=([^)]*)\)/.exec(body);
  return m ? { user: m[1]!, subresource: m[2]! } : {};
}

export function restStatusError(status: number, body: string, ctx: RestErrorContext): KubeletError {
  const text = body.trim().slice(0, 300);
  if (status === 401) {
    const tried = ctx.credential ? `the ${ctx.credential}` : 'no credential (anonymous access is off on this kubelet)';
    return new KubeletError('UNAUTHENTICATED', `The kubelet refused ${tried}: 401 ${text || 'Unauthorized'} (${ctx.where})`,
      ctx.credential
        ? ctx.tokenAuth
          ? 'Check that the token is current (service-account tokens expire) and is for this cluster. The kubelet checks tokens with the API server, so a token also fails while the control plane is down: a client certificate does not.'
          : 'Check that the certificate is signed by the CA the kubelet trusts (its clientCAFile) and has not expired.'
        : 'Give a bearer token (--token-file) or a client certificate and key (--client-cert, --client-key).');
  }
  if (status === 403) {
    const { user, subresource } = attributes(body);
    const rule = subresource ?? 'proxy';
    return new KubeletError('FORBIDDEN', `The kubelet denied ${user ?? 'this user'} access to nodes/${rule}: 403 ${text} (${ctx.where})`,
      `Grant it with RBAC, e.g. a ClusterRole with rules [{apiGroups: [""], resources: ["nodes/${rule}"${rule === 'proxy' ? ', "nodes/pods"' : ''}], verbs: ["get"]}] bound to ${user ?? 'the user'}. /pods needs nodes/proxy (or nodes/pods on 1.33+), /stats/summary nodes/stats, /metrics/probes nodes/metrics.`);
  }
  if (status === 500 && /^Authorization error/.test(text)) {
    const { user, subresource } = attributes(body);
    return new KubeletError('AUTHORIZER_DOWN',
      `The kubelet could not ask the API server whether ${user ?? 'this user'} may read nodes/${subresource ?? 'proxy'}: the control plane is unreachable from the node (${ctx.where}): ${text}`,
      WHAT_WORKS, { retryable: true });
  }
  if (status === 404) {
    return new KubeletError('UNIMPLEMENTED', `This kubelet does not serve ${ctx.where}: 404 ${text}`, 'The endpoint may be disabled on this kubelet (e.g. enableDebuggingHandlers: false hides /runningpods/).');
  }
  return new KubeletError('INTERNAL', `The kubelet answered ${status} for ${ctx.where}: ${text}`, 'Try again; check the kubelet log if it persists.', { retryable: status >= 500 });
}
