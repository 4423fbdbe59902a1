import type { SshPrompter } from './ssh-prompter';

/**
 * A login that several nodes wait for (one jump host shared by the nodes behind it) asks its questions
 * of one of them at a time: the first still there, and the next when that one gives up (its node was
 * removed) before answering, so one node's removal never fails the login for the others. Both
 * transports share their jump logins this way (ssh2 connections, OpenSSH masters).
 */

/** A caller waiting for or holding the login, who can be asked its questions until it gives up. */
export interface Asker {
  prompter: SshPrompter;
  signal: AbortSignal | undefined;
}

const GONE = Symbol('the asker gave up');

/** `answer`, or GONE once `signal` aborts: an answer that comes after (a prompt declined as its node closed) is not the user's. */
function unlessGone<T>(answer: Promise<T>, signal: AbortSignal | undefined): Promise<T | typeof GONE> {
  if (!signal) return answer;
  if (signal.aborted) return Promise.resolve(GONE);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(GONE);
    signal.addEventListener('abort', onAbort, { once: true });
    answer.then(
      (a) => resolve(signal.aborted ? GONE : a),
      (err: unknown) => (signal.aborted ? resolve(GONE) : reject(err)),
    ).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * The prompter of a shared login: each question goes to the first of `askers()` still there, and to the
 * next one when that one gives up before answering. Nobody left: rejects with `nobody()` (the login is
 * being abandoned anyway).
 */
export function handedOnPrompter(askers: () => readonly Asker[], nobody: () => Error): SshPrompter {
  const ask = async <T>(question: (p: SshPrompter) => Promise<T>): Promise<T> => {
    for (;;) {
      const asker = askers().find((a) => !a.signal?.aborted);
      if (!asker) throw nobody();
      const answer = await unlessGone(question(asker.prompter), asker.signal);
      if (answer !== GONE) return answer;
    }
  };
  return {
    hostKey: (q) => ask((p) => p.hostKey(q)),
    passphrase: (q) => ask((p) => p.passphrase(q)),
    keyboardInteractive: (q) => ask((p) => p.keyboardInteractive(q)),
  };
}

/** Rejects with `gaveUp()` when `signal` aborts, whatever the shared `p` still does for the others. */
export function unlessAborted<T>(p: Promise<T>, signal: AbortSignal | undefined, gaveUp: () => Error): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) {
    // Dropped as it is when the abort comes later: a failure of `p` (a login every node gave up on) has no one to tell.
    p.catch(() => {});
    return Promise.reject(gaveUp());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(gaveUp());
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
