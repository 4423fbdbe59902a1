/**
 * One line of a CRI container log file, as the runtime writes it and the kubelet parses it (cri-client
 * `parseCRILog`): `TIMESTAMP SP STREAM SP TAGS SP CONTENT`. Only the first of the `:`-separated tags counts:
 * `P` is a partial line (its trailing newline is dropped, so chunks run together), anything else a full one.
 */
import { parseRfc3339 } from '../util/rfc3339';

export type LogStream = 'stdout' | 'stderr';

export interface CriLogLine {
  /** The timestamp as written (RFC 3339 with up to 9 fraction digits, `Z` or an offset). */
  timestamp: string;
  /** Nanoseconds since the epoch, for `--since` comparisons at full precision. */
  nanos: bigint;
  stream: LogStream;
  partial: boolean;
  /** The content, with the newline a full line ends in (a partial line's is dropped). */
  content: Buffer;
}

// Go's layout 2006-01-02T15:04:05.999999999Z07:00: the fraction is optional, the zone `Z` or ±hh:mm.
const TIMESTAMP = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/;

/** Parses a CRI timestamp; undefined where Go's time.Parse would fail. */
export function parseCriTimestamp(text: string): { nanos: bigint; seconds: string; fraction: string; zone: string } | undefined {
  const m = TIMESTAMP.exec(text);
  if (!m) return undefined;
  const [, seconds, fraction = '', zone] = m as unknown as [string, string, string | undefined, string];
  const ms = parseRfc3339(`${seconds}${zone}`);
  if (ms === undefined) return undefined;
  return { nanos: BigInt(ms) * 1_000_000n + BigInt(fraction.padEnd(9, '0')), seconds, fraction, zone };
}

/**
 * The kubelet's `--timestamps` prefix: Go's RFC3339NanoFixed (`.000000000Z07:00`) of the parsed time, so nine
 * fraction digits and the zone as written, except that Go prints a zero offset as `Z`.
 */
export function fixedTimestamp(text: string): string {
  const t = parseCriTimestamp(text);
  if (!t) throw new Error(`not a CRI timestamp: ${text}`);
  const zone = t.zone === '+00:00' || t.zone === '-00:00' ? 'Z' : t.zone;
  return `${t.seconds}.${t.fraction.padEnd(9, '0')}${zone}`;
}

export class CriParseError extends Error {
  override name = 'CriParseError';
}

const SP = 0x20;

/** Parses one raw line (with or without its `\n`); throws CriParseError with the kubelet's reason when it is not CRI. */
export function parseCriLine(raw: Buffer): CriLogLine {
  let i = raw.indexOf(SP);
  if (i < 0) throw new CriParseError('timestamp is not found');
  const timestamp = raw.subarray(0, i).toString('latin1');
  const t = parseCriTimestamp(timestamp);
  if (!t) throw new CriParseError(`unexpected timestamp format ${JSON.stringify(timestamp)}`);
  let rest = raw.subarray(i + 1);
  i = rest.indexOf(SP);
  if (i < 0) throw new CriParseError('stream type is not found');
  const stream = rest.subarray(0, i).toString('latin1');
  if (stream !== 'stdout' && stream !== 'stderr') throw new CriParseError(`unexpected stream type ${JSON.stringify(stream)}`);
  rest = rest.subarray(i + 1);
  i = rest.indexOf(SP);
  if (i < 0) throw new CriParseError('log tag is not found');
  const partial = rest.subarray(0, i).toString('latin1').split(':')[0] === 'P';
  let content = rest.subarray(i + 1);
  if (partial && content.length > 0 && content[content.length - 1] === 0x0a) content = content.subarray(0, -1);
  return { timestamp, nanos: t.nanos, stream, partial, content };
}
