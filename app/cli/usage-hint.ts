/**
 * The line after a bad command line's problem, as kubectl prints it, instead of the whole help burying the
 * problem. A module of its own so that commands that load little (decode) need not load cli-failure's errors.
 */
export const usageHint = (command: string): string => `Run 'nodescope ${command} --help' for usage.`;
