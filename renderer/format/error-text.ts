import { ContractError } from '../../app/contract/errors';

/** What went wrong and the next step, as one line for the UI. */
export function errorText(err: unknown): string {
  if (err instanceof ContractError && err.hint && !err.message.includes(err.hint)) return `${err.message} ${err.hint}`;
  return err instanceof Error ? err.message : String(err);
}
