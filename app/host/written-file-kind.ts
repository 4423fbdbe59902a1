import { ContractError } from '../contract';

/**
 * Refuses a file to write whose name is not of the kind being written (`what`: 'Exports', 'Recordings').
 * Limiting the kind keeps a slip, or a page that names the path, from writing a shell profile, a key or
 * a cron entry.
 */
export function requireFileKind(path: string, extensions: readonly string[], what: string, example: string): void {
  if (extensions.some((ext) => path.toLowerCase().endsWith(ext))) return;
  throw new ContractError('invalid-input', `${what} are saved as ${extensions.join(', ')} files, not ${path}.`, `Name the file with one of those extensions, e.g. ${example}.`, 'path');
}
