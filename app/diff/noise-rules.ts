/**
 * Noise rules: differences people do not want to read, hidden by default, each one visible and
 * switchable (`--ignore PATH`, `--no-default-ignores`, a toggle per rule in the UI). A hidden change
 * is still in the patch and the structured output, marked with the rule that hid it.
 *
 * A rule's paths are patterns over diff paths (diff-path.ts):
 * - `metadata.managedFields`: the field and everything under it;
 * - `spec.containers.image` or `spec.containers[*].image`: in every element of the list;
 * - `spec.containers[name=app].image`, `status.podIPs[0]`: one element, by identity or position;
 * - `*` is any one field, `**` any number of levels (`**.startedAt`);
 * - `metadata.labels["app.kubernetes.io/name"]`: a key with dots or slashes, quoted.
 */
import type { DiffPath, PathPart } from './diff-path';
import type { IgnoreCheck } from './diff-values';

export interface NoiseRule {
  id: string;
  /** What it hides, in words for the UI and the CLI's summary. */
  title: string;
  paths: readonly string[];
  /** 'differentPods': only when two different pods are compared (not a pod against itself over time). */
  scope: 'always' | 'differentPods';
}

export const DEFAULT_NOISE_RULES: readonly NoiseRule[] = [
  { id: 'managedFields', title: 'managed fields (server bookkeeping)', paths: ['metadata.managedFields'], scope: 'always' },
  { id: 'resourceVersion', title: 'resource version', paths: ['metadata.resourceVersion'], scope: 'always' },
  {
    id: 'podIdentity',
    title: 'what differs between any two pods: UID, name (generateName suffix), container IDs',
    paths: ['metadata.uid', 'metadata.name', '**.containerID'],
    scope: 'differentPods',
  },
  { id: 'ips', title: 'IP addresses', paths: ['status.podIP', 'status.podIPs', 'status.hostIP', 'status.hostIPs'], scope: 'differentPods' },
  {
    id: 'timestamps',
    title: 'timestamps',
    paths: ['metadata.creationTimestamp', 'status.startTime', '**.lastTransitionTime', '**.lastProbeTime', '**.startedAt', '**.finishedAt'],
    scope: 'differentPods',
  },
];

export interface NoiseSettings {
  /** Apply DEFAULT_NOISE_RULES (less `disabled`); false is --no-default-ignores. */
  defaults: boolean;
  /** Default rule ids switched off. */
  disabled?: readonly string[];
  /**
   * Rules for two different pods switched on for a pod against itself too (the UI lists every rule in
   * every comparison: a pod's history can hide its timestamps as well).
   */
  enabled?: readonly string[];
  /** The user's own paths (--ignore), each a rule of its own. */
  extra?: readonly string[];
}

export class IgnorePatternError extends Error {
  override name = 'IgnorePatternError';
}

/** Whether a default rule applies unless switched: always-rules everywhere, the others to two different pods. */
export const onByDefault = (rule: NoiseRule, differentPods: boolean): boolean => rule.scope === 'always' || differentPods;

/** The rules in force for one comparison. */
export function activeRules(settings: NoiseSettings, differentPods: boolean): NoiseRule[] {
  const rules = settings.defaults
    ? DEFAULT_NOISE_RULES.filter((r) => !settings.disabled?.includes(r.id) && (onByDefault(r, differentPods) || settings.enabled?.includes(r.id)))
    : [];
  for (const path of settings.extra ?? []) {
    parsePattern(path);
    rules.push({ id: `ignore:${path}`, title: `--ignore ${path}`, paths: [path], scope: 'always' });
  }
  return rules;
}

type Token =
  | { kind: 'key'; name: string }
  | { kind: 'any' }
  | { kind: 'deep' }
  | { kind: 'element'; index?: number; identity?: [string, string][] };

/** Parses one path pattern; the error names the pattern, the position and what was expected. */
export function parsePattern(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const fail = (what: string): never => {
    throw new IgnorePatternError(`bad path '${text}' at character ${i + 1}: ${what}; e.g. spec.containers[name=app].image or **.startedAt`);
  };
  if (text.trim() === '') fail('the path is empty');
  while (i < text.length) {
    if (text[i] === '[') {
      const close = text[i + 1] === '"' ? closingQuote(text, i + 1) + 1 : text.indexOf(']', i);
      if (close < 0 || text[close] !== ']') fail('a [ without its ]');
      const inner = text.slice(i + 1, close);
      tokens.push(selector(inner) ?? fail(`'[${inner}]' is neither [*], [N], [field=value] nor ["key"]`));
      i = close + 1;
      if (text[i] === '.') i++;
      continue;
    }
    let end = i;
    while (end < text.length && text[end] !== '.' && text[end] !== '[') end++;
    const name = text.slice(i, end);
    if (name === '') fail('a field name is missing');
    tokens.push(name === '**' ? { kind: 'deep' } : name === '*' ? { kind: 'any' } : { kind: 'key', name });
    i = end;
    if (text[i] === '.') {
      i++;
      if (i === text.length) fail('the path ends with a dot');
    }
  }
  return tokens;
}

function closingQuote(text: string, open: number): number {
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -2;
}

function selector(inner: string): Token | undefined {
  if (inner === '*') return { kind: 'element' };
  if (/^\d+$/.test(inner)) return { kind: 'element', index: Number(inner) };
  if (inner.startsWith('"')) {
    try {
      return { kind: 'key', name: JSON.parse(inner) as string };
    } catch {
      return undefined;
    }
  }
  const pairs = inner.split(',').map((p) => p.split('='));
  if (pairs.some((p) => p.length !== 2 || p[0] === '')) return undefined;
  return { kind: 'element', identity: pairs.map(([f, v]) => [f!, v!]) };
}

/** Does the pattern match the path or one of its ancestors? */
function matches(pattern: Token[], path: DiffPath, p = 0, q = 0): boolean {
  if (p === pattern.length) return true;
  const token = pattern[p]!;
  if (token.kind === 'deep') return matches(pattern, path, p + 1, q) || (q < path.length && matches(pattern, path, p, q + 1));
  if (q === path.length) return false;
  const part: PathPart = path[q]!;
  if (token.kind === 'element') {
    if (part.kind !== 'element') return false;
    if (token.index !== undefined && token.index !== part.index) return false;
    if (token.identity && !token.identity.every(([f, v]) => part.identity?.some(([pf, pv]) => pf === f && pv === v))) return false;
    return matches(pattern, path, p + 1, q + 1);
  }
  // A field pattern passes over list elements it does not name: spec.containers.image.
  if (part.kind === 'element') return matches(pattern, path, p, q + 1);
  if (token.kind === 'key' && token.name !== part.name) return false;
  return matches(pattern, path, p + 1, q + 1);
}

/** One check for a comparison: the first rule whose pattern covers the path. */
export function compileIgnore(rules: readonly NoiseRule[]): IgnoreCheck {
  const compiled = rules.flatMap((rule) => rule.paths.map((path) => ({ id: rule.id, tokens: parsePattern(path) })));
  if (compiled.length === 0) return () => undefined;
  return (path) => {
    for (const { id, tokens } of compiled) if (matches(tokens, path)) return id;
    return undefined;
  };
}
