/**
 * What a node command's SOURCE names (docs/cli.md, "Sources"), as the source kinds registered by scheme
 * recognise it (app/source/source-arguments.ts): `unix:PATH` or `--local PATH`, a pod file, `ssh://` or any
 * other SSH destination.
 */
import { UsageError } from './usage-error';

export { parseSourceArgument as resolveSource } from '../source/source-arguments';

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A duration like `90s`, `5m`, `1h30m` or `250ms`, in ms; undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  if (!/^(\d+(\.\d+)?(ms|s|m|h))+$/.test(text)) return undefined;
  let ms = 0;
  for (const [, n, unit] of text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) ms += Number(n) * UNITS[unit!]!;
  return ms;
}

/** `--at`: an RFC 3339 time, or `+DURATION` from the recording's start. Returns epoch ms. */
export function parseAt(text: string, start: number): number {
  if (text.startsWith('+')) {
    const ms = parseDuration(text.slice(1));
    if (ms === undefined) throw new UsageError(`bad --at '${text}': after + give a duration such as 90s, 5m or 1h30m`);
    return start + ms;
  }
  const ms = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/i.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(ms)) throw new UsageError(`bad --at '${text}': give an RFC 3339 time such as 2026-11-23T10:00:00Z, or +5m from the start`);
  return ms;
}
