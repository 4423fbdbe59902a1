import { inspect } from 'node:util';

export interface PollOptions {
  /** How long to keep polling before failing; default 20 s, generous for a loaded CI machine. */
  timeoutMs?: number;
  /** Pause between two looks; default 25 ms. */
  intervalMs?: number;
}

const present = (value: unknown): boolean => value !== undefined && value !== false;

/**
 * Looks at `observe` until its value `holds` (by default: is neither undefined nor false) and
 * returns that value. On timeout it fails naming what was awaited and the last value seen, so a
 * failure shows how far things got. An error thrown by `observe` fails at once.
 */
export function pollUntil<T>(what: string, observe: () => T | undefined | false | Promise<T | undefined | false>, options?: PollOptions): Promise<T>;
export function pollUntil<T, S extends T>(what: string, observe: () => T | Promise<T>, holds: (value: T) => value is S, options?: PollOptions): Promise<S>;
export function pollUntil<T>(what: string, observe: () => T | Promise<T>, holds: (value: T) => boolean, options?: PollOptions): Promise<T>;
export async function pollUntil<T>(
  what: string,
  observe: () => T | Promise<T>,
  holdsOrOptions?: ((value: T) => boolean) | PollOptions,
  maybeOptions?: PollOptions,
): Promise<T> {
  const holds = typeof holdsOrOptions === 'function' ? holdsOrOptions : present;
  const { timeoutMs = 20_000, intervalMs = 25 } = (typeof holdsOrOptions === 'function' ? maybeOptions : holdsOrOptions) ?? {};
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await observe();
    if (holds(value)) return value;
    if (Date.now() >= deadline) {
      const last = inspect(value, { depth: 4, breakLength: Infinity, maxArrayLength: 20, maxStringLength: 400 });
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last observed: ${last}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
