/**
 * The part of kubectl's JSONPath that --sort-by and -o custom-columns use: a path of fields and list
 * indexes, written `{.metadata.name}`, `.metadata.name` or `metadata.name` (kubectl's relaxed form), with
 * `[0]`, `[*]`, `['key.with.dots']` and `\.` in a field name.
 */
import type { PodValue } from '../pod/pod-tree';
import { UsageError } from './usage-error';

export type PathStep = { key: string } | { index: number } | { all: true };

const FIELD_END = /[.[\]{}\s]/;

/** Parses a path; `what` names the option in errors (e.g. "--sort-by"). */
export function parseJsonPath(text: string, what: string): PathStep[] {
  let rest = text.trim();
  if (rest.startsWith('{') && rest.endsWith('}')) rest = rest.slice(1, -1).trim();
  const bad = (why: string) => new UsageError(`bad ${what} '${text}': ${why}; write a path such as .metadata.name or {.status.containerStatuses[0].restartCount}`);
  if (rest === '') throw bad('the path is empty');
  if (!rest.startsWith('.') && !rest.startsWith('[')) rest = `.${rest}`;
  const steps: PathStep[] = [];
  let i = 0;
  while (i < rest.length) {
    const c = rest[i];
    if (c === '.') {
      let key = '';
      i++;
      while (i < rest.length && !FIELD_END.test(rest[i]!)) {
        // `\.` is a dot inside a field name (metadata.labels.app\.kubernetes\.io/name).
        if (rest[i] === '\\' && i + 1 < rest.length) i++;
        key += rest[i++];
      }
      if (key === '') throw bad(`no field name at character ${i}`);
      steps.push({ key });
    } else if (c === '[') {
      const close = rest.indexOf(']', i);
      if (close < 0) throw bad("a '[' is not closed");
      const inner = rest.slice(i + 1, close).trim();
      const quoted = /^(['"])(.*)\1$/.exec(inner);
      if (inner === '*') steps.push({ all: true });
      else if (/^\d+$/.test(inner)) steps.push({ index: Number(inner) });
      else if (quoted) steps.push({ key: quoted[2]! });
      else throw bad(`'[${inner}]' is not an index, [*] or a quoted field name (filters are not supported)`);
      i = close + 1;
    } else throw bad(`unexpected '${c}' at character ${i}`);
  }
  return steps;
}

/** Every value the path reaches in `value` (several through [*]); none when a field is absent. */
export function evalJsonPath(value: PodValue | undefined, steps: readonly PathStep[]): PodValue[] {
  let current: PodValue[] = value === undefined ? [] : [value];
  for (const step of steps) {
    const next: PodValue[] = [];
    for (const v of current) {
      if ('key' in step) {
        if (v !== null && typeof v === 'object' && !Array.isArray(v) && typeof v !== 'bigint' && Object.hasOwn(v, step.key)) next.push(v[step.key]!);
      } else if (Array.isArray(v)) {
        if ('all' in step) next.push(...v);
        else if (step.index < v.length) next.push(v[step.index]!);
      }
    }
    current = next;
  }
  return current;
}

/** The dotted field path a mask would name for these steps (indexes dropped): what a masked pod must keep. */
export const maskPathOf = (steps: readonly PathStep[]): string =>
  steps.flatMap((s) => ('key' in s ? [s.key] : [])).join('.');

/** A value as a table cell: text as is, numbers and booleans as kubectl prints them, objects and lists as JSON. */
export function valueText(v: PodValue): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? Number(x) : x));
}
