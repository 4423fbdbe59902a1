import { status as Status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { SshError } from '../ssh/ssh-errors';
import { canPassByWaiting, toKubeletError } from './kubelet-error';

const ctx = (transportError: Error | null = null, method = 'ListPods') => ({
  api: 'shipped',
  method,
  socketPath: '/var/lib/kubelet/pods-api/pods-api.sock',
  transportError: () => transportError,
});
const grpcError = (code: Status, details: string) => Object.assign(new Error(details), { code, details, metadata: undefined });

describe('kubelet errors: what the user is told to do', () => {
  it('shows the SSH cause behind UNAVAILABLE instead of ECONNRESET', () => {
    const cause = new SshError('SUDO_REFUSED', 'sudo refused socat for ops on node-1', 'Add this sudoers line: ops ALL=(root) NOPASSWD: ...');
    const err = toKubeletError(grpcError(Status.UNAVAILABLE, 'No connection established. Last error: read ECONNRESET'), ctx(cause));
    expect(err).toMatchObject({ code: 'PERMISSION', sshCode: 'SUDO_REFUSED', message: cause.message, nextStep: cause.nextStep, retryable: false });
  });

  it('names a call the kubelet did not answer in time as NO_ANSWER, unless SSH behind it failed', () => {
    const late = toKubeletError(grpcError(Status.DEADLINE_EXCEEDED, 'no answer within 30 s'), ctx());
    expect(late).toMatchObject({ code: 'NO_ANSWER', retryable: true });
    expect(late.message).toBe('The kubelet did not answer ListPods (shipped API) on /var/lib/kubelet/pods-api/pods-api.sock: no answer within 30 s');
    expect(late.nextStep).toContain('--call-timeout');
    const cause = new SshError('KEEPALIVE_TIMEOUT', 'node-1 stopped answering keepalives', 'It will be re-dialled.');
    expect(toKubeletError(grpcError(Status.DEADLINE_EXCEEDED, 'no answer within 30 s'), ctx(cause))).toMatchObject({ code: 'UNREACHABLE', sshCode: 'KEEPALIVE_TIMEOUT' });
  });

  it('adds the PodsAPI feature gate to a missing socket on the node', () => {
    const cause = new SshError('SOCKET_MISSING', 'No kubelet socket at node-1:/x.sock', 'Check the socket path.');
    expect(toKubeletError(grpcError(Status.UNAVAILABLE, 'x'), ctx(cause)).nextStep).toMatch(/Check the socket path\. The Pods API needs the PodsAPI feature gate \(Kubernetes 1\.36\+, on by default from 1\.37\)/);
  });

  it.each([
    [Status.FAILED_PRECONDITION, 'Kubelet is initializing', 'ListPods', 'INITIALIZING', true],
    [Status.RESOURCE_EXHAUSTED, 'rejected by rate limit', 'GetPod', 'RATE_LIMITED', true],
    [Status.RESOURCE_EXHAUSTED, 'watch client channel closed', 'WatchPods', 'WATCH_DROPPED', true],
    // The kubelet restarting ends streams with CANCELLED (grpc-go forceShutdown): not the user's cancel.
    [Status.CANCELLED, 'Call cancelled', 'WatchPods', 'CANCELLED', true],
    [Status.UNIMPLEMENTED, 'unknown service v1alpha1.Pods', 'ListPods', 'UNIMPLEMENTED', false],
    [Status.NOT_FOUND, 'pod with UID x not found', 'GetPod', 'NOT_FOUND', false],
    [Status.INTERNAL, 'failed to marshal pod', 'ListPods', 'INTERNAL', false],
    [Status.INTERNAL, 'failed to marshal pod', 'WatchPods', 'INTERNAL', true],
  ] as const)('maps %s (%s) from %s to %s, retryable %s', (code, details, method, expected, retryable) => {
    const err = toKubeletError(grpcError(code, details), ctx(null, method));
    expect(err).toMatchObject({ code: expected, retryable });
    expect(err.message).toContain(details);
    expect(err.nextStep.length).toBeGreaterThan(10);
  });

  it('tells which --api to try when the shape is not served', () => {
    expect(toKubeletError(grpcError(Status.UNIMPLEMENTED, 'x'), ctx()).nextStep).toContain('--api documented');
  });

  it('explains local socket failures without SSH: missing, permission, nothing listening', () => {
    expect(toKubeletError(grpcError(Status.UNAVAILABLE, 'connect ENOENT /x.sock'), ctx()).code).toBe('SOCKET_MISSING');
    expect(toKubeletError(grpcError(Status.UNAVAILABLE, 'connect EACCES /x.sock'), ctx()).nextStep).toContain('root');
    expect(toKubeletError(grpcError(Status.UNAVAILABLE, 'connect ECONNREFUSED /x.sock'), ctx())).toMatchObject({ code: 'UNREACHABLE', retryable: true });
  });

  it('decides what waiting can fix: a missing socket only once the node has been live, never what the user must change', () => {
    const viaSsh = (code: ConstructorParameters<typeof SshError>[0]) => toKubeletError(grpcError(Status.UNAVAILABLE, 'x'), ctx(new SshError(code, 'm', 'h')));
    const local = toKubeletError(grpcError(Status.UNAVAILABLE, 'connect ENOENT /x.sock'), ctx());
    for (const missing of [local, viaSsh('SOCKET_MISSING'), viaSsh('HOST_NOT_FOUND')]) {
      expect([canPassByWaiting(missing, false), canPassByWaiting(missing, true)]).toEqual([false, true]);
    }
    for (const code of ['AUTH_FAILED', 'HOST_KEY_REJECTED', 'SUDO_REFUSED', 'FORWARDING_DISABLED', 'LOCAL_FILE', 'NEEDS_OPENSSH', 'NO_COMMON_ALGORITHM'] as const) {
      expect(canPassByWaiting(viaSsh(code), true)).toBe(false);
    }
    for (const code of ['HOST_UNREACHABLE', 'DNS', 'CONNECTION_LOST', 'SOCKET_NOT_LISTENING'] as const) {
      expect(canPassByWaiting(viaSsh(code), false)).toBe(true);
    }
    expect(canPassByWaiting(toKubeletError(grpcError(Status.UNIMPLEMENTED, 'x'), ctx()), true)).toBe(false);
    expect(canPassByWaiting(toKubeletError(grpcError(Status.FAILED_PRECONDITION, 'x'), ctx()), false)).toBe(true);
  });
});
