import type { PodRow } from '../../contract/pods';
import { summarizeProbes, type PodMetricsView } from './pod-metrics';

/**
 * The pods filter box: whitespace-separated terms, all of which must match.
 *   text            name, namespace, IP or status contains it (case-insensitive)
 *   ns:NAME         namespace          phase:NAME   phase or kubectl status (Running, CrashLoopBackOff)
 *   node:NAME       node name          owner:X      owner kind or name (owner:DaemonSet, owner:coredns)
 *   label:k=v       label equals       label:k      label present; label:k!=v label differs
 *   is:static | is:deleting | is:ready | is:notready | is:restarted
 *                   is:notready leaves out pods that ran to completion (phase Succeeded, kubectl's
 *                   Completed): their containers are meant to have stopped, as k9s sees it too
 *   probe:failed | probe:ok | probe:unknown | probe:none   a probe's last result (REST nodes); ok: all pass
 * Values may use * as a wildcard and list alternatives with commas (phase:Pending,Failed).
 * A leading - negates a term (-ns:kube-system). "double quotes" keep spaces in one term.
 */
export type FilterTerm =
  | { kind: 'text'; text: string; negate: boolean }
  | { kind: 'ns' | 'phase' | 'node' | 'owner'; values: string[]; negate: boolean }
  | { kind: 'label'; key: string; op: '=' | '!=' | 'exists'; value: string; negate: boolean }
  | { kind: 'is'; flag: IsFlag; negate: boolean }
  | { kind: 'probe'; state: ProbeState; negate: boolean };

const IS_FLAGS = ['static', 'deleting', 'ready', 'notready', 'restarted'] as const;
type IsFlag = (typeof IS_FLAGS)[number];
const PROBE_STATES = ['failed', 'ok', 'unknown', 'none'] as const;
type ProbeState = (typeof PROBE_STATES)[number];
const KEYS = ['ns', 'namespace', 'phase', 'status', 'node', 'owner', 'label', 'is', 'probe'] as const;

export interface ParsedFilter {
  terms: FilterTerm[];
  /** Problems to show under the box; terms with problems are left out, the rest still apply. */
  errors: string[];
}

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  const re = /(?:[^\s"]+|"[^"]*"?)+/g;
  for (const m of text.matchAll(re)) tokens.push(m[0].replace(/"/g, ''));
  return tokens.filter((t) => t !== '' && t !== '-');
}

export function parseFilter(text: string): ParsedFilter {
  const terms: FilterTerm[] = [];
  const errors: string[] = [];
  for (const raw of tokenize(text)) {
    const negate = raw.startsWith('-') || raw.startsWith('!');
    const token = negate ? raw.slice(1) : raw;
    const colon = token.indexOf(':');
    const key = colon > 0 ? token.slice(0, colon).toLowerCase() : '';
    if (!key || !(KEYS as readonly string[]).includes(key)) {
      if (key && /^[a-z]+$/.test(key) && !token.slice(colon + 1).startsWith('/')) {
        errors.push(`Unknown filter "${key}:". Use ns:, phase:, node:, owner:, label:, is: or probe:, or quote the text to search for it.`);
        continue;
      }
      terms.push({ kind: 'text', text: token.toLowerCase(), negate });
      continue;
    }
    const value = token.slice(colon + 1);
    if (value === '') {
      errors.push(`"${key}:" needs a value, e.g. ${key === 'label' ? 'label:app=web' : key === 'is' ? 'is:static' : `${key}:kube-system`}.`);
      continue;
    }
    if (key === 'label') {
      const m = /^([^=!]+)(!=|=)?(.*)$/.exec(value);
      if (!m || (m[2] && m[3] === undefined)) {
        errors.push(`Cannot read "${token}". Write label:key=value, label:key!=value or label:key.`);
        continue;
      }
      const op = m[2] === '=' ? '=' : m[2] === '!=' ? '!=' : 'exists';
      terms.push({ kind: 'label', key: m[1] ?? '', op, value: m[3] ?? '', negate });
      continue;
    }
    if (key === 'is') {
      const flag = value.toLowerCase();
      if (!(IS_FLAGS as readonly string[]).includes(flag)) {
        errors.push(`Unknown "is:${value}". Use one of ${IS_FLAGS.map((f) => `is:${f}`).join(', ')}.`);
        continue;
      }
      terms.push({ kind: 'is', flag: flag as IsFlag, negate });
      continue;
    }
    if (key === 'probe') {
      const state = value.toLowerCase();
      if (!(PROBE_STATES as readonly string[]).includes(state)) {
        errors.push(`Unknown "probe:${value}". Use one of ${PROBE_STATES.map((p) => `probe:${p}`).join(', ')}.`);
        continue;
      }
      terms.push({ kind: 'probe', state: state as ProbeState, negate });
      continue;
    }
    const kind = key === 'namespace' ? 'ns' : key === 'status' ? 'phase' : (key as 'ns' | 'phase' | 'node' | 'owner');
    terms.push({ kind, values: value.toLowerCase().split(',').filter(Boolean), negate });
  }
  return { terms, errors };
}

/** Past this many distinct values a term forgets what it learnt (owner names, label values can be many). */
const MEMO_LIMIT = 4096;

/**
 * Whether a field's value is one of `patterns` (case-insensitive, whole value, * a wildcard), each
 * distinct value worked out once: a column such as the namespace holds a few values over 100,000 rows,
 * and a lookup by the value itself costs neither a lower-cased copy nor a regular expression per row.
 */
function valueMatcher(patterns: readonly string[]): (actual: string) => boolean {
  const exact = new Set(patterns.filter((p) => !p.includes('*')));
  const wild = patterns
    .filter((p) => p.includes('*'))
    .map((p) => new RegExp(`^${p.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 'i'));
  const memo = new Map<string, boolean>();
  return (actual) => {
    let hit = memo.get(actual);
    if (hit === undefined) {
      hit = exact.has(actual.toLowerCase()) || wild.some((re) => re.test(actual));
      if (memo.size >= MEMO_LIMIT) memo.clear();
      memo.set(actual, hit);
    }
    return hit;
  };
}

/** Whether the pod's probes are in `state`; a pod whose probes were not read matches none. */
function probesAre(state: ProbeState, m: PodMetricsView | undefined): boolean {
  if (!m || !('value' in m.probes)) return false;
  const s = summarizeProbes(m.probes.value);
  switch (state) {
    case 'failed':
      return s.failed > 0;
    case 'ok':
      return s.ok > 0 && s.failed === 0 && s.unknown === 0;
    case 'unknown':
      return s.unknown > 0;
    case 'none':
      return s.failed + s.ok + s.unknown === 0;
  }
}

/**
 * What a text term searches: name, namespace and status in lower case, and the IP as it is, joined by
 * "A". A term is in lower case, so it never contains "A" and never matches across two fields: this
 * finds exactly what searching each field would, in one search. Kept beside each row in the table's
 * index, so a keystroke on 30,000 rows reads one string per row.
 */
export const searchText = (row: PodRow): string => `${row.name.toLowerCase()}A${row.namespace.toLowerCase()}A${row.status.toLowerCase()}A${row.podIP}`;

/** What a row's filter is asked with beside the row: the node's metrics, and the row's searchText when already made. */
type RowMatcher = (row: PodRow, metricsOf: ((row: PodRow) => PodMetricsView) | undefined, text: string | undefined) => boolean;

/** One term as a function of a row, its patterns prepared once (the table runs it on every row per keystroke). */
function compileTerm(term: FilterTerm): RowMatcher {
  switch (term.kind) {
    case 'probe':
      return (row, metricsOf) => probesAre(term.state, metricsOf?.(row));
    case 'text':
      return (row, _, text) => (text ?? searchText(row)).includes(term.text);
    case 'ns': {
      const is = valueMatcher(term.values);
      return (row) => is(row.namespace);
    }
    case 'node': {
      const is = valueMatcher(term.values);
      return (row) => is(row.node);
    }
    case 'phase': {
      const is = valueMatcher(term.values);
      return (row) => is(row.phase) || is(row.status);
    }
    case 'owner': {
      const is = valueMatcher(term.values);
      // kind/name can only match a value with a slash or a wildcard: the others need no joined text per row.
      const joined = term.values.some((v) => v.includes('/') || v.includes('*'));
      return (row) => is(row.ownerKind) || is(row.ownerName) || (joined && is(`${row.ownerKind}/${row.ownerName}`));
    }
    case 'label': {
      const { key, op } = term;
      const is = valueMatcher([term.value.toLowerCase()]);
      return (row) => {
        // Own keys only: label:constructor must not find Object.prototype's.
        const actual = Object.hasOwn(row.labels, key) ? row.labels[key] : undefined;
        if (op === 'exists') return actual !== undefined;
        const equal = actual !== undefined && is(actual);
        return op === '=' ? equal : !equal;
      };
    }
    case 'is':
      switch (term.flag) {
        case 'static':
          return (row) => row.isStatic;
        case 'deleting':
          return (row) => row.deleting;
        case 'ready':
          return (row) => row.total > 0 && row.ready === row.total;
        case 'notready':
          // A Completed pod shows READY 0/1 in kubectl yet is done, not broken: an operator asking
          // which pods are not ready means the ones that should be serving and are not.
          return (row) => row.ready < row.total && row.phase !== 'Succeeded';
        case 'restarted':
          return (row) => row.restarts > 0;
      }
  }
}

/** A filter as one function of a row: `text` is the row's searchText when already made. */
export type PodMatcher = (row: PodRow, metricsOf?: (row: PodRow) => PodMetricsView, text?: string) => boolean;

/** Compiles `filter` once; the table keeps the result for as long as the filter is the same. */
export function compileFilter(filter: ParsedFilter): PodMatcher {
  const terms = filter.terms.map((term) => ({ matches: compileTerm(term), negate: term.negate }));
  return (row, metricsOf, text) => {
    // A loop, not every(): this runs once per row per keystroke, 110,000 times over a big fleet.
    for (const term of terms) if (term.matches(row, metricsOf, text) === term.negate) return false;
    return true;
  };
}

const compiled = new WeakMap<ParsedFilter, PodMatcher>();

/** Whether `row` matches `filter`, compiled on its first use. `text`: the row's searchText when already made. */
export function matchesFilter(filter: ParsedFilter, row: PodRow, metricsOf?: (row: PodRow) => PodMetricsView, text?: string): boolean {
  let matcher = compiled.get(filter);
  if (!matcher) compiled.set(filter, (matcher = compileFilter(filter)));
  return matcher(row, metricsOf, text);
}

const sameTerm = (a: FilterTerm, b: FilterTerm) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Whether every row `next` matches also matches `previous` (under the same metrics), as when typing
 * on: terms are all required, so a term added narrows, and so does a text term that grew (a row
 * containing "web-1" contains "web"). Then only the rows `previous` matched need filtering again.
 */
export function narrows(next: ParsedFilter, previous: ParsedFilter): boolean {
  const prev = previous.terms;
  if (prev.length === 0 || next.terms.length < prev.length) return false;
  return prev.every((term, i) => {
    const now = next.terms[i]!;
    if (sameTerm(term, now)) return true;
    // Only the last term typed can have grown; a negated one matches more as it grows.
    return i === prev.length - 1 && term.kind === 'text' && now.kind === 'text' && !term.negate && !now.negate && now.text.includes(term.text);
  });
}
