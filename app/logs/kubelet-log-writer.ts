/**
 * The kubelet's log reader loop (cri-client `ReadLogs` with its `logWriter`), fed one raw line at a time: parse,
 * skip what fails to parse, drop lines before `since`, prefix the time at the start of a logical line only,
 * count `tail` lines, cut at `limitBytes`. Its output is what `kubectl logs` prints.
 */
import { CriParseError, fixedTimestamp, parseCriLine, type CriLogLine } from './cri-log-line';
import type { LogReadOptions } from './log-options';
import { NodescopeError } from '../util/nodescope-error';

export interface WrittenLine {
  /** The bytes to print. */
  bytes: Buffer;
  line: CriLogLine;
}

export class KubeletLogWriter {
  private isNewLine = true;
  private remaining: number;
  /** Lines still to take in limited mode (tail without follow); undefined = no limit. */
  private left: number | undefined;
  private formatChecked = false;
  /** True once nothing more may be written (tail count or byte limit reached). */
  done = false;
  /** Lines that did not parse, skipped as the kubelet skips (and logs) them. */
  readonly skipped: { line: Buffer; reason: string }[] = [];

  constructor(private readonly opts: LogReadOptions) {
    this.remaining = opts.limitBytes ?? Infinity;
    this.left = opts.tailLines !== undefined && opts.tailLines >= 0 && !opts.follow ? opts.tailLines : undefined;
    if (this.left === 0) this.done = true;
  }

  /** Takes one raw line (with its `\n`, or without for an unterminated last line); returns what to print, if anything. */
  write(raw: Buffer): WrittenLine | undefined {
    if (this.done) return undefined;
    let line: CriLogLine;
    try {
      line = parseCriLine(raw);
    } catch (err) {
      if (!(err instanceof CriParseError)) throw err;
      // The kubelet picks its parser from the first line and fails the read when no format fits it.
      if (!this.formatChecked) throw new UnsupportedLogFormatError(`the log does not start with a CRI log line (${err.message}); Docker's JSON log format is not read by Nodescope`);
      this.skipped.push({ line: raw, reason: err.message });
      return undefined;
    }
    this.formatChecked = true;
    const out = this.emit(line);
    if (this.left !== undefined && --this.left <= 0) this.done = true;
    this.isNewLine = line.content.length === 0 || line.content[line.content.length - 1] === 0x0a;
    return out;
  }

  private emit(line: CriLogLine): WrittenLine | undefined {
    if (this.opts.sinceNanos !== undefined && line.nanos < this.opts.sinceNanos) return undefined;
    if (this.opts.streams && !this.opts.streams.includes(line.stream)) return undefined;
    let bytes = this.opts.timestamps && this.isNewLine ? Buffer.concat([Buffer.from(`${fixedTimestamp(line.timestamp)} `), line.content]) : line.content;
    if (bytes.length > this.remaining) bytes = bytes.subarray(0, this.remaining);
    this.remaining -= bytes.length;
    if (this.remaining <= 0) this.done = true;
    return { bytes, line };
  }
}

export class UnsupportedLogFormatError extends NodescopeError<'UNSUPPORTED_FORMAT'> {
  override name = 'UnsupportedLogFormatError';
  readonly exitClass = 'data';
  constructor(message: string) {
    super('UNSUPPORTED_FORMAT', message, undefined);
  }
}
