import type { SshPrompter } from '../ssh-prompter';

/**
 * Tells when one of ssh's questions is waiting for the user: the login's deadline does not count that
 * wait (as the built-in transport's does not), and starts afresh once the answer is in.
 */
export interface PromptWait {
  /** `prompter`, telling of each question while it waits. */
  prompter: SshPrompter;
  asking(): boolean;
  /** Calls `listener` when a question starts or the last one ends; returns the unsubscribe function. */
  onChange(listener: () => void): () => void;
}

export function watchPrompts(prompter: SshPrompter): PromptWait {
  let waiting = 0;
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const l of listeners) l();
  };
  const timed = <Q, A>(ask: (q: Q) => Promise<A>) => async (q: Q): Promise<A> => {
    waiting++;
    changed();
    try {
      return await ask(q);
    } finally {
      waiting--;
      changed();
    }
  };
  return {
    prompter: {
      hostKey: timed((q) => prompter.hostKey(q)),
      passphrase: timed((q) => prompter.passphrase(q)),
      keyboardInteractive: timed((q) => prompter.keyboardInteractive(q)),
    },
    asking: () => waiting > 0,
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
