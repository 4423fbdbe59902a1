/** How a node command reports a failure: the message, the next step, and the exit code for scripts. */
import { KubeletError } from '../kubelet/kubelet-error';
import { CredentialError } from '../kubelet-rest/rest-credentials';
import { PodDecodeError } from '../pod/decode';
import { RecordingWriteError } from '../recording/recording-writer';
import { PodFileError } from '../snapshot/pod-file-error';
import { isSshError } from '../ssh/ssh-errors';
import { EXIT } from './exit-codes';
import { CliUsageError } from './node-options';
import { printError } from './terminal-text';
import { usageHint } from './usage-hint';

const CONNECTION_CODES = new Set(['UNREACHABLE', 'SOCKET_MISSING', 'PERMISSION', 'FORWARDING_DISABLED', 'TLS']);

export function exitCodeFor(err: unknown): number {
  if (err instanceof CliUsageError || err instanceof CredentialError || err instanceof PodFileError) return EXIT.usage;
  if (err instanceof RecordingWriteError) return EXIT.output;
  if (err instanceof KubeletError) return CONNECTION_CODES.has(err.code) ? EXIT.connection : EXIT.api;
  if (isSshError(err)) return EXIT.connection;
  if (err instanceof PodDecodeError) return EXIT.data;
  return EXIT.internal;
}

/**
 * Prints the failure on stderr and returns the exit code. A bad command line (`commandLine`) gets one more line
 * pointing at --help, as kubectl does, rather than the whole help burying the problem.
 */
export function reportFailure(command: string, err: unknown, commandLine = false): number {
  const message = err instanceof Error ? err.message : String(err);
  const hint = err instanceof KubeletError || err instanceof CredentialError || isSshError(err) ? err.hint : undefined;
  printError(`nodescope ${command}: ${message}`);
  if (hint) printError(`  next step: ${hint}`);
  if (err instanceof CliUsageError && commandLine) printError(usageHint(command));
  return exitCodeFor(err);
}
