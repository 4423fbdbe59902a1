import { describe, expect, it } from 'vitest';
import { fixedTimestamp, parseCriLine } from './cri-log-line';
import { KubeletLogWriter, UnsupportedLogFormatError } from './kubelet-log-writer';
import type { LogReadOptions } from './log-options';
import { sinceSecondsNanos, sinceTimeNanos } from './log-options';

const run = (text: string, opts: LogReadOptions = {}) => {
  const w = new KubeletLogWriter(opts);
  const lines = text.split(/(?<=\n)/).filter((l) => l.length);
  return Buffer.concat(lines.flatMap((l) => w.write(Buffer.from(l))?.bytes ?? [])).toString();
};

const LOG = [
  '2026-01-01T10:00:00.1Z stdout F first\n',
  '2026-01-01T10:00:01.123456789Z stdout P par\n',
  '2026-01-01T10:00:02Z stdout F t one\n',
].join('');

describe('CRI lines as the kubelet parses them', () => {
  it('splits timestamp, stream, tag and content; drops a partial chunk\'s newline', () => {
    const l = parseCriLine(Buffer.from('2016-10-06T00:17:09.669794202Z stdout P log content 1\n'));
    expect(l).toMatchObject({ timestamp: '2016-10-06T00:17:09.669794202Z', stream: 'stdout', partial: true });
    expect(l.content.toString()).toBe('log content 1');
    expect(parseCriLine(Buffer.from('2016-10-06T00:17:09Z stderr F:x  two spaces\n')).content.toString()).toBe(' two spaces\n');
  });

  it('refuses what the kubelet refuses, with its reasons', () => {
    expect(() => parseCriLine(Buffer.from('nospace'))).toThrow('timestamp is not found');
    expect(() => parseCriLine(Buffer.from('2016-10-06 stdout F x'))).toThrow('unexpected timestamp format');
    expect(() => parseCriLine(Buffer.from('2016-10-06T00:17:09Z stdin F x'))).toThrow('unexpected stream type');
    expect(() => parseCriLine(Buffer.from('2016-10-06T00:17:09Z stdout F\n'))).toThrow('log tag is not found');
  });

  it('prints timestamps as Go RFC3339NanoFixed: nine digits, the offset kept, a zero offset as Z', () => {
    expect(fixedTimestamp('2026-01-01T10:00:00.1Z')).toBe('2026-01-01T10:00:00.100000000Z');
    expect(fixedTimestamp('2026-01-01T10:00:00+02:00')).toBe('2026-01-01T10:00:00.000000000+02:00');
    expect(fixedTimestamp('2026-01-01T10:00:00.5-00:00')).toBe('2026-01-01T10:00:00.500000000Z');
  });
});

describe('the kubelet log writer (what kubectl logs prints)', () => {
  it('joins partial lines and prefixes the time only where a logical line starts', () => {
    expect(run(LOG)).toBe('first\npart one\n');
    expect(run(LOG, { timestamps: true })).toBe('2026-01-01T10:00:00.100000000Z first\n2026-01-01T10:00:01.123456789Z part one\n');
  });

  it('skips a line that does not parse after the first, and refuses a log whose first line is not CRI', () => {
    expect(run('2026-01-01T10:00:00Z stdout F a\ngarbage\n2026-01-01T10:00:00Z stderr F b\n')).toBe('a\nb\n');
    expect(() => run('{"log":"x","stream":"stdout"}\n')).toThrow(UnsupportedLogFormatError);
  });

  it('selects streams; an unselected line counts neither bytes nor is printed', () => {
    const text = '2026-01-01T10:00:00Z stdout F out\n2026-01-01T10:00:00Z stderr F err\n2026-01-01T10:00:00Z stdout F out2\n';
    expect(run(text, { streams: ['stderr'] })).toBe('err\n');
    expect(run(text, { streams: ['stdout'], limitBytes: 6 })).toBe('out\nou');
  });

  it('cuts at --limit-bytes counting the timestamp prefix', () => {
    expect(run(LOG, { timestamps: true, limitBytes: 33 })).toBe('2026-01-01T10:00:00.100000000Z fi');
  });

  it('--since drops earlier lines at nanosecond precision; --since-time counts whole seconds as kubectl sends it', () => {
    const since = 1767261601123456789n; // 2026-01-01T10:00:01.123456789Z
    expect(run(LOG, { sinceNanos: since })).toBe('part one\n');
    expect(run(LOG, { sinceNanos: since + 1n })).toBe('t one\n');
    expect(sinceTimeNanos(Date.parse('2026-01-01T10:00:01.900Z'))).toBe(1767261601000000000n);
    expect(sinceSecondsNanos(400, Date.parse('2026-01-01T10:00:00Z'))).toBeUndefined();
    expect(sinceSecondsNanos(90_600, Date.parse('2026-01-01T10:00:00Z'))).toBe(1767261600000000000n - 91_000_000_000n);
  });

  it('stops after N parsed lines in tail mode (each partial chunk counts), but not when following', () => {
    expect(run(LOG, { tailLines: 2 })).toBe('first\npar');
    expect(run(LOG, { tailLines: 0 })).toBe('');
    expect(run(LOG, { tailLines: 1, follow: true })).toBe('first\npart one\n');
  });
});
