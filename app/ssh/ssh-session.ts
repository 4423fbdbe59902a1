import { openSshConnection, type OpenSshOptions, type SshConnection, type SshTarget } from './ssh-connection';
import { classifyConnectError, SshError, type HopLabel } from './ssh-errors';
import { backoffDelayMs, DEFAULT_BACKOFF, type BackoffPolicy } from './reconnect-backoff';
import { wakeableSleep } from '../util/wakeable-sleep';

/**
 * One logical SSH link to a node. It dials lazily (on the first channel), re-dials on the
 * next request after a drop, and spaces out failed dials with a capped backoff. Errors the
 * user must fix (auth, host key) stop the re-dialling until retry(), so nobody is asked for
 * a passphrase in a loop. State changes are published for the UI.
 */

export type SessionState =
  | { state: 'idle' }
  | { state: 'connecting' }
  | { state: 'waiting-for-host-key' }
  | { state: 'connected' }
  /** Connected, but the node has not answered since `since` (see SshConnection.onSilence): what it sent last may be stale. */
  | { state: 'silent'; since: number }
  | { state: 'reconnecting'; inMs: number; cause: SshError }
  | { state: 'error'; cause: SshError; nextStep: string }
  | { state: 'closed' };

/** Opens one connection to the node: the built-in transport's openSshConnection, or the user's OpenSSH. */
export type SshDial = (options: OpenSshOptions) => Promise<SshConnection>;

export interface SshSessionOptions extends OpenSshOptions {
  backoff?: BackoffPolicy;
}

export interface SshSession {
  /** A live connection, dialling (or waiting out the backoff) first when needed. */
  connection(): Promise<SshConnection>;
  state(): SessionState;
  /** Calls `listener` on every change; returns the unsubscribe function. */
  onState(listener: (s: SessionState) => void): () => void;
  /**
   * Calls `listener` when the node stops answering (with since when) and when a connection answers again
   * (null). A connection given up stays silent until the next one answers: the drop is reported by its users.
   */
  onSilence(listener: (silentSince: number | null) => void): () => void;
  /** The current problem (failed dial or drop), for display; null once connected again. */
  lastError(): SshError | null;
  /** Clears a stop-the-world error (after the user fixed it) so the next request dials again. */
  retry(): void;
  close(): void;
}

/** `given`, or a built-in session to `target`, which must then be resolved from ssh_config (an SshTarget). */
export function sessionFor(target: SshTarget | HopLabel, given: SshSession | undefined, options: SshSessionOptions): SshSession {
  if (given) return given;
  if (!('proxyJump' in target)) throw new Error(`no session to ${target.host}: a node reached through OpenSSH comes with its session`);
  return createSshSession(target, options);
}

/** A session over the built-in transport to `target`. */
export function createSshSession(target: SshTarget, options: SshSessionOptions): SshSession {
  return createDialSession(target, (o) => openSshConnection(target, o), options);
}

/** A session to the node `target` names, each connection opened by `connect` (e.g. the user's OpenSSH). */
export function createDialSession(target: HopLabel, connect: SshDial, options: SshSessionOptions): SshSession {
  const listeners = new Set<(s: SessionState) => void>();
  let current: SessionState = { state: 'idle' };
  let conn: SshConnection | undefined;
  let dialing: Promise<SshConnection> | undefined;
  let failures = 0;
  /** When the last dial failed and how long the next one must wait, as announced to the UI. */
  let failedAt = 0;
  let nextDelayMs = 0;
  let lastError: SshError | null = null;
  let fatal: SshError | null = null;
  let closed = false;
  const backoff = wakeableSleep();
  /** Aborts the dial in progress, which may be waiting on a prompt nobody will answer now. */
  let abortDial: AbortController | undefined;

  const setState = (s: SessionState) => {
    current = s;
    for (const l of listeners) l(s);
  };

  // The host key question is the one prompt the UI shows as a connection state.
  const prompter: typeof options.prompter = {
    ...options.prompter,
    hostKey: async (info) => {
      setState({ state: 'waiting-for-host-key' });
      try {
        return await options.prompter.hostKey(info);
      } finally {
        if (!closed) setState({ state: 'connecting' });
      }
    },
    passphrase: (info) => options.prompter.passphrase(info),
    keyboardInteractive: (info) => options.prompter.keyboardInteractive(info),
  };

  const closedError = () => new SshError('CLOSED', `The session to ${target.host} was closed`, 'Open the node again.');

  const dial = async (): Promise<SshConnection> => {
    const wait = failedAt + nextDelayMs - Date.now();
    if (wait > 0 && lastError) {
      setState({ state: 'reconnecting', inMs: wait, cause: lastError });
      await backoff.sleep(wait);
    }
    if (closed) throw closedError();
    setState({ state: 'connecting' });
    let next: SshConnection;
    abortDial = new AbortController();
    try {
      next = await connect({ ...options, prompter, signal: abortDial.signal });
    } catch (err) {
      const e = classifyConnectError(err, target);
      lastError = e;
      failures++;
      failedAt = Date.now();
      nextDelayMs = backoffDelayMs(failures, options.backoff ?? DEFAULT_BACKOFF);
      if (closed) throw closedError();
      if (e.retryable) {
        setState({ state: 'reconnecting', inMs: nextDelayMs, cause: e });
      } else {
        fatal = e;
        setState({ state: 'error', cause: e, nextStep: e.nextStep });
      }
      throw e;
    }
    if (closed) {
      next.close();
      throw closedError();
    }
    failures = 0;
    nextDelayMs = 0;
    lastError = null;
    conn = next;
    setState({ state: 'connected' });
    next.onSilence((since) => {
      if (conn !== next || closed) return;
      setState(since === null ? { state: 'connected' } : { state: 'silent', since });
    });
    void next.closed.then((cause) => {
      if (conn !== next || closed) return;
      conn = undefined;
      if (cause) {
        lastError = cause;
        // The first re-dial after a drop is immediate; only failed dials back off.
        setState({ state: 'reconnecting', inMs: 0, cause });
      }
    });
    return next;
  };

  return {
    connection: () => {
      if (closed) return Promise.reject(closedError());
      if (conn?.isOpen()) return Promise.resolve(conn);
      if (fatal) return Promise.reject(fatal);
      dialing ??= dial().finally(() => {
        dialing = undefined;
      });
      return dialing;
    },
    state: () => current,
    onState: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onSilence: (listener) => {
      let told: number | null = current.state === 'silent' ? current.since : null;
      const onState = (s: SessionState) => {
        if (s.state !== 'silent' && s.state !== 'connected') return;
        const since = s.state === 'silent' ? s.since : null;
        if (since === told) return;
        told = since;
        listener(since);
      };
      listeners.add(onState);
      return () => listeners.delete(onState);
    },
    lastError: () => lastError,
    retry: () => {
      fatal = null;
      // A shared jump host login that failed the same way is to be tried again too.
      options.jumpPool?.retry();
      failures = 0;
      nextDelayMs = 0;
      backoff.wake();
    },
    close: () => {
      if (closed) return;
      closed = true;
      backoff.wake();
      abortDial?.abort();
      conn?.close();
      conn = undefined;
      setState({ state: 'closed' });
    },
  };
}
