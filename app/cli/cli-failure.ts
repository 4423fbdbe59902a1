/** How a command reports a failure: the message, the next step, and the exit code for scripts, all read from the error. */
import { isNodescopeError } from '../util/nodescope-error';
import { EXIT, EXIT_OF_CLASS } from './exit-codes';
import { printError } from './terminal-text';
import { UsageError } from './usage-error';
import { usageHint } from './usage-hint';

/** The exit code of the error's class; anything that is not a NodescopeError is a bug (internal). */
export function exitCodeFor(err: unknown): number {
  return isNodescopeError(err) ? EXIT_OF_CLASS[err.exitClass] : EXIT.internal;
}

/** The error's next step, unless its message says it already (pod file and recording errors end with it). */
export function nextStepOf(err: unknown): string | undefined {
  if (!isNodescopeError(err) || !err.nextStep || err.message.includes(err.nextStep)) return undefined;
  return err.nextStep;
}

/**
 * Prints the failure on stderr and returns the exit code. A bad command line (`commandLine`) gets one more line
 * pointing at --help, as kubectl does, rather than the whole help burying the problem.
 */
export function reportFailure(command: string, err: unknown, commandLine = false): number {
  const message = err instanceof Error ? err.message : String(err);
  const nextStep = nextStepOf(err);
  printError(`nodescope ${command}: ${message}`);
  if (nextStep) printError(`  next step: ${nextStep}`);
  if (err instanceof UsageError && commandLine) printError(usageHint(command));
  return exitCodeFor(err);
}
