/**
 * kubectl's label selector (-l): requirements joined by commas, all of which a pod's labels must meet:
 * `key=value` (or `==`), `key!=value`, `key in (a,b)`, `key notin (a,b)`, `key`, `!key`, `key>N`, `key<N`.
 * As in Kubernetes, `!=` and `notin` also match a pod without the label.
 */
import { UsageError } from './usage-error';

export type LabelRequirement =
  | { key: string; op: 'exists' | 'absent' }
  | { key: string; op: 'in' | 'notin'; values: string[] }
  | { key: string; op: 'gt' | 'lt'; value: number };

// Kubernetes' qualified name: an optional DNS-subdomain prefix and '/', then a name of up to 63 characters.
const NAME = '[A-Za-z0-9](?:[-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?';
const KEY = `(?:[a-z0-9](?:[-a-z0-9.]{0,251}[a-z0-9])?/)?${NAME}`;
const VALUE = `(?:${NAME})?`;
const FORMS: [RegExp, (m: RegExpExecArray) => LabelRequirement][] = [
  [new RegExp(`^!\\s*(${KEY})$`), (m) => ({ key: m[1]!, op: 'absent' })],
  [new RegExp(`^(${KEY})$`), (m) => ({ key: m[1]!, op: 'exists' })],
  [new RegExp(`^(${KEY})\\s*(==|=|!=)\\s*(${VALUE})$`), (m) => ({ key: m[1]!, op: m[2] === '!=' ? 'notin' : 'in', values: [m[3]!] })],
  [
    new RegExp(`^(${KEY})\\s+(in|notin)\\s*\\(\\s*(${VALUE}(?:\\s*,\\s*${VALUE})*)\\s*\\)$`),
    (m) => {
      if (m[3]!.trim() === '') throw new UsageError(`-l '${m[0]}': '${m[2]!}' needs at least one value, e.g. ${m[1]!} ${m[2]!} (a,b)`);
      return { key: m[1]!, op: m[2] as 'in' | 'notin', values: m[3]!.split(',').map((v) => v.trim()) };
    },
  ],
  [new RegExp(`^(${KEY})\\s*([<>])\\s*(-?\\d+)$`), (m) => ({ key: m[1]!, op: m[2] === '>' ? 'gt' : 'lt', value: Number(m[3]) })],
];

/** Splits at the commas that are not inside a set's parentheses. */
function requirementsText(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')') depth--;
    else if (text[i] === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim());
}

/** Parses -l's text; an empty selector selects every pod. */
export function parseLabelSelector(text: string): LabelRequirement[] {
  if (text.trim() === '') return [];
  return requirementsText(text).map((part) => {
    for (const [form, make] of FORMS) {
      const m = form.exec(part);
      if (m) return make(m);
    }
    throw new UsageError(
      `bad label selector '${part}' in -l '${text}': write key=value, key!=value, 'key in (a,b)', 'key notin (a,b)', key or !key, joined by commas (a key or value is letters, digits, '-', '_', '.', at most 63 long)`,
    );
  });
}

/** Whether `labels` meet every requirement. */
export function matchesLabels(requirements: readonly LabelRequirement[], labels: Readonly<Record<string, string>>): boolean {
  return requirements.every((r) => {
    const has = Object.hasOwn(labels, r.key);
    const value = has ? labels[r.key]! : undefined;
    switch (r.op) {
      case 'exists':
        return has;
      case 'absent':
        return !has;
      case 'in':
        return value !== undefined && r.values.includes(value);
      case 'notin':
        return value === undefined || !r.values.includes(value);
      case 'gt':
      case 'lt': {
        // Kubernetes compares whole numbers only; a label that is not one never matches.
        if (value === undefined || !/^-?\d+$/.test(value)) return false;
        return r.op === 'gt' ? Number(value) > r.value : Number(value) < r.value;
      }
    }
  });
}
