import { NodescopeError } from '../../app/util/nodescope-error';

/** What went wrong and the next step, as one line for the UI. */
export function errorText(err: unknown): string {
  if (err instanceof NodescopeError && err.nextStep && !err.message.includes(err.nextStep)) return `${err.message} ${err.nextStep}`;
  return err instanceof Error ? err.message : String(err);
}
