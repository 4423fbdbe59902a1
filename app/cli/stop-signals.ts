/**
 * The signals that stop a command writing a file (export --file, record) the way Ctrl-C does, so the file is
 * left whole: an interrupt, a kill, and the terminal going away (a dropped SSH session to a jump box).
 */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
