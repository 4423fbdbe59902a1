import { useState } from 'react';
import { errorText } from '../format/error-text';

/** The outcome of the user's last action, for the banners: what failed (and why), or what was done. */
export function useActionStatus() {
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  return {
    error,
    done,
    setDone,
    clearError: () => setError(null),
    clearDone: () => setDone(null),
    fail: (err: unknown) => setError(errorText(err)),
    /** Runs an action; its failure shows in the banner instead of going unheard. */
    act: async (run: () => Promise<unknown>) => {
      setError(null);
      try {
        await run();
      } catch (err) {
        setError(errorText(err));
      }
    },
  };
}

export type ActionStatus = ReturnType<typeof useActionStatus>;
