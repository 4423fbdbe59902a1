/**
 * A pod tree -> the exact text `kubectl get pod -o json` prints (docs/pod-json.md): Go's JSON rules decided
 * from the Go field kinds, keys sorted bytewise, 4-space indent, Go's HTML-safe escaping, trailing newline.
 * Each message's printing plan (sorted members, pre-quoted keys, rule per member) is computed once.
 */
import { compareGoKeys, podSchema, type FieldSchema, type MessageSchema } from '../schema/pod-schema';
import type { PodObject, PodTree, PodValue } from './pod-tree';

export interface KubectlJsonOptions {
  /** kubectl's --show-managed-fields: keep metadata.managedFields of each pod. */
  showManagedFields?: boolean;
}

const enum Rule {
  /** Non-pointer string/number/bool: zero when absent; omitempty drops the zero value. */
  Scalar,
  /** Pointer (scalar, struct or special): printed exactly when present. */
  Pointer,
  /** Non-pointer struct: always printed, `{}` when absent. */
  Struct,
  /** Non-pointer Time: null when zero; omitzero drops it. */
  Time,
  /** Non-pointer Quantity / IntOrString: their zero is "0" / 0. */
  SpecialValue,
  /** List or map: omitempty drops it when empty, otherwise an empty one prints null. */
  Collection,
}

interface Member {
  key: string;
  /** The key as a JSON string, pre-escaped. */
  quotedKey: string;
  rule: Rule;
  omit: boolean;
  zero: PodValue;
  field: FieldSchema;
}

const plans = new Map<MessageSchema, Member[]>();

function planOf(schema: MessageSchema): Member[] {
  let plan = plans.get(schema);
  if (plan) return plan;
  plan = schema.members.map(({ name, field }) => {
    const special = field.message?.special;
    let rule: Rule;
    if (field.goKind === 'list' || field.goKind === 'map') rule = Rule.Collection;
    else if (field.goKind === 'pointer') rule = Rule.Pointer;
    else if (special === 'time') rule = Rule.Time;
    else if (special === 'quantity' || special === 'intOrString') rule = Rule.SpecialValue;
    else if (field.message) rule = Rule.Struct;
    else rule = Rule.Scalar;
    const zero: PodValue = special === 'quantity' ? '0' : special === 'intOrString' ? 0 : field.scalar === 'string' ? '' : field.scalar === 'bool' ? false : 0;
    return { key: name, quotedKey: quote(name), rule, omit: rule === Rule.Time ? field.omitzero : field.omitempty, zero, field };
  });
  plans.set(schema, plan);
  return plan;
}

const NEEDS_ESCAPE = /["\\\u0000-\u001f<>&\u2028\u2029]/;
const HTML_UNSAFE = /[<>&\u2028\u2029]/g;
const HTML_ESCAPES: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };

/** Go's encoding/json string form (HTML-safe). JSON.stringify already matches Go for quotes, backslash and controls. */
export function quote(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return `"${s}"`;
  return JSON.stringify(s).replace(HTML_UNSAFE, (c) => HTML_ESCAPES[c]!);
}

const INDENTS: string[] = [];
function indent(depth: number): string {
  return (INDENTS[depth] ??= `\n${'    '.repeat(depth)}`);
}

class Printer {
  out = '';

  constructor(
    private readonly showManagedFields: boolean,
    /** Compact is Go's json.Marshal (NDJSON); otherwise kubectl's 4-space MarshalIndent. */
    private readonly compact = false,
  ) {}

  private ind(depth: number): string {
    return this.compact ? '' : indent(depth);
  }

  private key(quotedKey: string): string {
    return this.compact ? `${quotedKey}:` : `${quotedKey}: `;
  }

  pod(pod: PodTree, depth: number): void {
    const schema = podSchema().pod;
    const inner = this.ind(depth + 1);
    this.out += `{${inner}${this.key('"apiVersion"')}"v1",${inner}${this.key('"kind"')}"Pod"`;
    for (const m of planOf(schema)) {
      this.out += `,${inner}${this.key(m.quotedKey)}`;
      const value = pod[m.key];
      if (m.key === 'metadata' && !this.showManagedFields) this.message(m.field.message!, (value as PodObject | undefined) ?? {}, depth + 1, 'managedFields');
      else this.message(m.field.message!, (value as PodObject | undefined) ?? {}, depth + 1);
    }
    this.out += `${this.ind(depth)}}`;
  }

  private message(schema: MessageSchema, obj: PodObject, depth: number, skipKey?: string): void {
    let first = true;
    const inner = this.ind(depth + 1);
    this.out += '{';
    for (const m of planOf(schema)) {
      let value = obj[m.key];
      switch (m.rule) {
        case Rule.Scalar:
          if (value === undefined) value = m.zero;
          if (m.omit && (value === m.zero || value === 0n)) continue;
          break;
        case Rule.Pointer:
          if (value === undefined) continue;
          break;
        case Rule.Struct:
          if (value === undefined) value = {};
          break;
        case Rule.Time:
          if (value === undefined) value = null;
          if (m.omit && value === null) continue;
          break;
        case Rule.SpecialValue:
          if (value === undefined) value = m.zero;
          break;
        case Rule.Collection: {
          const empty = value === undefined || value === null || (Array.isArray(value) ? value.length === 0 : isEmptyObject(value as PodObject));
          if (empty) {
            if (m.omit) continue;
            value = null;
          }
          break;
        }
      }
      if (m.key === skipKey) continue;
      this.out += first ? inner : `,${inner}`;
      first = false;
      this.out += this.key(m.quotedKey);
      this.fieldValue(m.field, value, depth + 1);
    }
    this.out += first ? '}' : `${this.ind(depth)}}`;
  }

  private fieldValue(field: FieldSchema, value: PodValue | undefined, depth: number): void {
    if (value === null || value === undefined) {
      this.out += 'null';
      return;
    }
    if (field.map) {
      this.map(field, value as PodObject, depth);
      return;
    }
    if (field.repeated) {
      const list = value as PodValue[];
      const inner = this.ind(depth + 1);
      this.out += '[';
      for (let i = 0; i < list.length; i++) {
        this.out += i === 0 ? inner : `,${inner}`;
        this.element(field, list[i]!, depth + 1);
      }
      this.out += `${this.ind(depth)}]`;
      return;
    }
    this.element(field, value, depth);
  }

  private element(field: FieldSchema, value: PodValue, depth: number): void {
    const msg = field.message;
    if (msg && msg.special === undefined) this.message(msg, value as PodObject, depth);
    else this.any(value, depth);
  }

  private map(field: FieldSchema, map: PodObject, depth: number): void {
    const keys = Object.keys(map).sort(compareGoKeys);
    const inner = this.ind(depth + 1);
    this.out += '{';
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      this.out += `${i === 0 ? inner : `,${inner}`}${this.key(quote(k))}`;
      this.element(field, map[k]!, depth + 1);
    }
    this.out += `${this.ind(depth)}}`;
  }

  /** Plain JSON values: scalars, special types' JSON forms, and FieldsV1 content. */
  any(value: PodValue | undefined, depth: number): void {
    switch (typeof value) {
      case 'string':
        this.out += quote(value);
        return;
      case 'number':
      case 'bigint':
        this.out += String(value);
        return;
      case 'boolean':
        this.out += value ? 'true' : 'false';
        return;
    }
    if (value === null || value === undefined) {
      this.out += 'null';
      return;
    }
    const inner = this.ind(depth + 1);
    if (Array.isArray(value)) {
      if (value.length === 0) {
        this.out += '[]';
        return;
      }
      this.out += '[';
      for (let i = 0; i < value.length; i++) {
        this.out += i === 0 ? inner : `,${inner}`;
        this.any(value[i], depth + 1);
      }
      this.out += `${this.ind(depth)}]`;
      return;
    }
    const keys = Object.keys(value).sort(compareGoKeys);
    if (keys.length === 0) {
      this.out += '{}';
      return;
    }
    this.out += '{';
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      this.out += `${i === 0 ? inner : `,${inner}`}${this.key(quote(k))}`;
      this.any(value[k], depth + 1);
    }
    this.out += `${this.ind(depth)}}`;
  }
}

function isEmptyObject(obj: PodObject): boolean {
  for (const _ in obj) return false;
  return true;
}

/** One pod as `kubectl get pod NAME -o json` prints it. */
export function podToKubectlJson(pod: PodTree, options: KubectlJsonOptions = {}): string {
  const p = new Printer(options.showManagedFields === true);
  p.pod(pod, 0);
  return `${p.out}\n`;
}

/** Several pods as kubectl prints them: a `List`. */
export function podsToKubectlListJson(pods: Iterable<PodTree>, options: KubectlJsonOptions = {}): string {
  const p = new Printer(options.showManagedFields === true);
  p.out = '{\n    "apiVersion": "v1",\n    "items": [';
  let first = true;
  for (const pod of pods) {
    p.out += first ? '\n        ' : ',\n        ';
    first = false;
    p.pod(pod, 2);
  }
  p.out += first ? ']' : '\n    ]';
  p.out += ',\n    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    }\n}\n';
  return p.out;
}

/** One pod on one line, for NDJSON: the object kubectl prints, in Go's compact form. */
export function podToNdjsonLine(pod: PodTree, options: KubectlJsonOptions = {}): string {
  const p = new Printer(options.showManagedFields === true, true);
  p.pod(pod, 0);
  return p.out;
}
