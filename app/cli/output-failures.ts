/**
 * What every command does when stdout or stderr can no longer be written, installed once at start (main.ts):
 * without it a failed write is an unhandled 'error' event, a stack trace and exit 1.
 */
import type { Writable } from 'node:stream';
import { whyCannotWrite } from '../fs/write-error';
import { EXIT } from './exit-codes';

export interface OutputStreams {
  out: Writable;
  err: Writable;
  exit: (code: number) => void;
}

/**
 * stdout's reader went away (`nodescope pods NODE | head`): the run ends quietly, as other Unix tools do. Any
 * other failure of stdout (a full disk behind `> file`) is said on stderr and ends with exit 6. A stderr that
 * cannot be written only loses the messages: the output on stdout or in --file is still wanted.
 */
export function handleOutputFailures({ out, err, exit }: OutputStreams = { out: process.stdout, err: process.stderr, exit: (code) => process.exit(code) }): void {
  out.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') return exit(EXIT.ok);
    err.write(`nodescope: cannot write the output: ${whyCannotWrite(e) ?? e.message}; what was written is incomplete: send the output elsewhere and run the command again\n`);
    exit(EXIT.output);
  });
  err.on('error', () => {});
}
