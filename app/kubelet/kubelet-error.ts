/**
 * Typed errors from the kubelet client. A gRPC call sees most transport failures as a bare
 * UNAVAILABLE (a connection that closed), so the mapping takes the transport's real cause when there is one,
 * and every error carries the next step for the user.
 */
import { Status, type GrpcStatusError } from '../grpc/grpc-error';
import { isSshError, type SshError } from '../ssh/ssh-errors';
import { NodescopeError, type ExitClass } from '../util/nodescope-error';

export type KubeletErrorCode =
  /** SSH or the local socket failed; `sshCode` says how when it came from the transport. */
  | 'UNREACHABLE'
  | 'SOCKET_MISSING'
  | 'PERMISSION'
  | 'FORWARDING_DISABLED'
  /** The kubelet does not serve this API shape. */
  | 'UNIMPLEMENTED'
  | 'INITIALIZING'
  | 'RATE_LIMITED'
  /** A watch the kubelet dropped because it fell behind. */
  | 'WATCH_DROPPED'
  | 'NOT_FOUND'
  | 'INVALID_ARGUMENT'
  /** A stream ended without us asking (kubelet restart): retryable. */
  | 'CANCELLED'
  /** REST API: the kubelet did not accept the credential (401). */
  | 'UNAUTHENTICATED'
  /** REST API: the credential's user lacks an RBAC rule on a node subresource (403). */
  | 'FORBIDDEN'
  /** REST API: the kubelet could not ask the API server whether to allow the request (control plane down). */
  | 'AUTHORIZER_DOWN'
  /** The kubelet took the call but sent no answer (or stopped in the middle of one) within the call timeout. */
  | 'NO_ANSWER'
  /** REST API: the kubelet's answer is larger than Nodescope accepts. */
  | 'TOO_LARGE'
  /** REST API: the serving certificate is untrusted, changed or refused, or the TLS handshake failed. */
  | 'TLS'
  | 'INTERNAL';

const RETRYABLE: ReadonlySet<KubeletErrorCode> = new Set(['INITIALIZING', 'RATE_LIMITED', 'WATCH_DROPPED', 'CANCELLED']);

/** What a missing socket may mean; `giveSocket` says how the path is given where the user is (a flag, a dialog field). */
export const featureGateNextStep = (giveSocket: string) =>
  'The Pods API needs the PodsAPI feature gate (Kubernetes 1.36+, on by default from 1.37); check the kubelet version and flags, ' +
  `or ${giveSocket} (shipped: /var/lib/kubelet/pods-api/pods-api.sock, documented: /var/lib/kubelet/pods/kubelet.sock, under the kubelet --root-dir).`;
export const FEATURE_GATE_NEXT_STEP = featureGateNextStep('give the socket path with --socket');

/** A kubelet that takes calls but does not answer them is stuck, not unreachable. */
export const NO_ANSWER_NEXT_STEP =
  'The kubelet took the call but is not answering: check its state and log on the node (systemctl status kubelet; journalctl -u kubelet), ' +
  'then try again; --call-timeout SECONDS gives a slow kubelet longer.';

/** Codes where the kubelet was never reached; the others are its answers (or its silence). */
const CONNECTION_CODES: ReadonlySet<KubeletErrorCode> = new Set(['UNREACHABLE', 'SOCKET_MISSING', 'PERMISSION', 'FORWARDING_DISABLED', 'TLS']);

export class KubeletError extends NodescopeError<KubeletErrorCode> {
  override readonly name = 'KubeletError';
  declare readonly nextStep: string;
  /** The transport's own error code when the cause was SSH or the bridge. */
  readonly sshCode?: string;
  /** Whether waiting and trying again can help without the user changing anything. */
  readonly retryable: boolean;
  /** Retryable only once the node has been live; before that the setting is wrong (see canPassByWaiting). */
  readonly permanentUntilLive: boolean;

  constructor(
    code: KubeletErrorCode,
    message: string,
    nextStep: string,
    opts: { cause?: unknown; sshCode?: string; retryable?: boolean; permanentUntilLive?: boolean } = {},
  ) {
    super(code, message, nextStep, opts);
    if (opts.sshCode !== undefined) this.sshCode = opts.sshCode;
    this.retryable = opts.retryable ?? RETRYABLE.has(code);
    this.permanentUntilLive = opts.permanentUntilLive ?? false;
  }

  get exitClass(): ExitClass {
    return CONNECTION_CODES.has(this.code) ? 'connection' : 'api';
  }
}

/**
 * Whether waiting can fix `err` for a node that has (or has never) been live on this connection: the
 * one place that decides between retrying and stopping with the error's next step. A missing socket
 * or an unknown host name is a restart in progress on a node that answered before, and a wrong
 * setting on one that never did. docs/retries.md lists every case.
 */
export function canPassByWaiting(err: KubeletError | SshError, everLive: boolean): boolean {
  return err.retryable && (everLive || !err.permanentUntilLive);
}

export interface ErrorContext {
  /** 'shipped' or 'documented': which shape the call used. */
  api: string;
  /** Where the socket is, for messages. */
  socketPath: string;
  /** The transport's real cause for UNAVAILABLE; null when it has none (or for a local socket). */
  transportError: () => Error | null;
  /** The grpc method, e.g. 'WatchPods'. */
  method: string;
}

function fromSsh(err: SshError): KubeletError {
  const opts = { cause: err, sshCode: err.code, retryable: err.retryable, permanentUntilLive: err.permanentUntilLive };
  switch (err.code) {
    case 'SOCKET_MISSING':
      return new KubeletError('SOCKET_MISSING', err.message, `${err.nextStep} ${FEATURE_GATE_NEXT_STEP}`, opts);
    case 'SOCKET_PERMISSION':
    case 'SUDO_REFUSED':
    case 'SOCAT_MISSING':
      return new KubeletError('PERMISSION', err.message, err.nextStep, opts);
    case 'FORWARDING_DISABLED':
      return new KubeletError('FORWARDING_DISABLED', err.message, err.nextStep, opts);
    default:
      return new KubeletError('UNREACHABLE', err.message, err.nextStep, opts);
  }
}

/** What a local socket's connect error means (no SSH: the error text is the real cause). */
function fromLocalSocket(details: string, ctx: ErrorContext, err: GrpcStatusError): KubeletError | undefined {
  if (/ENOENT/.test(details)) {
    return new KubeletError('SOCKET_MISSING', `No kubelet socket at ${ctx.socketPath}`, FEATURE_GATE_NEXT_STEP, { cause: err, retryable: true, permanentUntilLive: true });
  }
  if (/EACCES|EPERM/.test(details)) {
    return new KubeletError('PERMISSION', `Permission denied opening ${ctx.socketPath}`, 'Run as root (the socket is for local admins only), e.g. with sudo.', { cause: err });
  }
  if (/ECONNREFUSED/.test(details)) {
    return new KubeletError('UNREACHABLE', `Nothing listens on ${ctx.socketPath}`, 'Check that the kubelet is running; Nodescope keeps retrying.', { cause: err, retryable: true });
  }
  return undefined;
}

/** Maps a gRPC call's failure (grpc-error.ts's shape, or anything thrown around a call) to a KubeletError. */
export function toKubeletError(err: unknown, ctx: ErrorContext): KubeletError {
  if (err instanceof KubeletError) return err;
  if (isSshError(err)) return fromSsh(err);
  const e = err as Partial<GrpcStatusError>;
  const details = e.details ?? (err instanceof Error ? err.message : String(err));
  const what = `${ctx.method} (${ctx.api} API) on ${ctx.socketPath}`;
  switch (e.code) {
    case Status.UNIMPLEMENTED:
      return new KubeletError('UNIMPLEMENTED', `The kubelet does not serve the ${ctx.api} Pods API: ${details}`,
        `Try --api ${ctx.api === 'shipped' ? 'documented' : 'shipped'} (or --api auto), or check the socket path.`, { cause: err });
    case Status.FAILED_PRECONDITION:
      return new KubeletError('INITIALIZING', `The kubelet is initializing: ${details}`, 'Wait a few seconds; Nodescope retries on its own.', { cause: err });
    case Status.RESOURCE_EXHAUSTED:
      return ctx.method === 'WatchPods'
        ? new KubeletError('WATCH_DROPPED', `The kubelet dropped the watch: ${details}`, 'Nodescope watches again and reconciles the pod set.', { cause: err })
        : new KubeletError('RATE_LIMITED', `The kubelet rate-limited ${ctx.method}: ${details}`, 'Back off: ListPods and GetPod share 100 requests/s; Nodescope retries with backoff.', { cause: err });
    case Status.NOT_FOUND:
      return new KubeletError('NOT_FOUND', `No pod with that UID on this node: ${details}`, "List the node's pods (nodescope pods NODE) to find the UID.", { cause: err });
    case Status.INVALID_ARGUMENT:
      return new KubeletError('INVALID_ARGUMENT', `The kubelet rejected the request: ${details}`, 'Check the field mask paths (e.g. metadata.name,status.phase).', { cause: err });
    case Status.CANCELLED:
      return new KubeletError('CANCELLED', `${what} was cancelled by the other side (kubelet restart?): ${details}`, 'Nodescope retries.', { cause: err });
    case Status.DEADLINE_EXCEEDED: {
      const cause = ctx.transportError();
      if (cause && isSshError(cause)) return fromSsh(cause);
      return new KubeletError('NO_ANSWER', `The kubelet did not answer ${what}: ${details}`, NO_ANSWER_NEXT_STEP, { cause: err, retryable: true });
    }
    case Status.UNAVAILABLE: {
      const cause = ctx.transportError();
      if (cause && isSshError(cause)) return fromSsh(cause);
      const local = fromLocalSocket(details, ctx, err as GrpcStatusError);
      if (local) return local;
      const text = cause ? cause.message : details;
      return new KubeletError('UNREACHABLE', `Cannot reach the kubelet (${what}): ${text}`, 'Check the connection to the node; Nodescope retries.', { cause: err, retryable: true });
    }
    default:
      // A watch is watched again (a pod that failed to marshal may change or go); a single call is not.
      return new KubeletError('INTERNAL', `${what} failed: ${details}`, 'This is a kubelet-side failure; try again, and check the kubelet log if it persists.', {
        cause: err,
        retryable: ctx.method === 'WatchPods',
      });
  }
}
