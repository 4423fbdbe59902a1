/**
 * What a node command's SOURCE names (docs/cli.md, "Sources"):
 * - `unix:PATH`, or `--local PATH`: a Pods API socket on this machine;
 * - a pod file (snapshot or recording): anything containing '/', ending in a pod file extension, or that exists
 *   here as a file, since an SSH destination (host, user@host, ssh_config alias) has none of these;
 * - anything else: an SSH destination.
 */
import { existsSync, statSync } from 'node:fs';
import { UsageError } from './usage-error';

export type CliSource = { kind: 'ssh'; host: string } | { kind: 'socket'; path: string } | { kind: 'file'; path: string };

/** Extensions Nodescope writes or reads pod files with. */
export const POD_FILE_EXTENSIONS = ['.json', '.ndjson', '.jsonl', '.yaml', '.yml', '.pb', '.bin', '.protobuf', '.recording'];

export function resolveSource(source: string, local: string | undefined): CliSource {
  if (local !== undefined) return { kind: 'socket', path: local };
  if (source.startsWith('unix:')) {
    const path = source.slice('unix:'.length).replace(/^\/\/(?=\/)/, '');
    if (!path.startsWith('/')) throw new UsageError(`unix: needs an absolute socket path, e.g. unix:/run/pods.sock, got '${source}'`);
    return { kind: 'socket', path };
  }
  const lower = source.toLowerCase();
  if (source.includes('/') || POD_FILE_EXTENSIONS.some((ext) => lower.endsWith(ext))) return { kind: 'file', path: source };
  if (existsSync(source) && statSync(source).isFile()) return { kind: 'file', path: source };
  return { kind: 'ssh', host: source };
}

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
