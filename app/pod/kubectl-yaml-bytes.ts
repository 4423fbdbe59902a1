/**
 * Pod bytes -> kubectl's YAML text without printing JSON and reading it back: the fast path for `-o yaml`
 * and YAML exports. Like the bytes -> JSON printer (kubectl-json-bytes.ts) it walks per-message plans made
 * from the schema, and applies the same Go JSON rules (go-json-rules.ts: what is omitted, what prints as a
 * zero value or null), since kubectl's YAML is its JSON converted. What differs is the layout, which is
 * go-yaml's: struct members in go-yaml's key order (fixed per message, so sorted once here), map entries
 * sorted by it at run time, and every string written by the go-yaml emitter itself (quoting, folding, literals).
 *
 * A message's text is its members joined by line breaks at its indentation; the caller places
 * the first one (after `key:` and a line break, or after `- `). What this layout does not cover throws
 * YamlFastPathMiss, and the caller prints the pod through its JSON text instead: a string kubectl could not
 * carry (its problems need their paths), a string with U+FFFD (invalid UTF-8 is replaced per byte as Go does
 * only on the JSON path), a `|` literal whose last line break is a U+2028/U+2029 (go-yaml writes what follows
 * on the same line, after it, where this layout puts a line break first).
 */
import { podSchema, WIRE_LEN, WIRE_VARINT, type MessageSchema } from '../schema/pod-schema';
import type { DecodeContext } from './decode-context';
import { GoYamlEmitter, isPlainKey } from './go-yaml-emitter';
import { compareYamlKeys } from './go-yaml-rules';
import { MANAGED_FIELDS, Rule, ruleOf } from './go-json-rules';
import { goJsonCompact } from './kubectl-json';
import { mapEntries, type MapEntry } from './kubectl-json-bytes';
import { Element, elementKind, MemberScanner, scanTable, type ScanTable } from './member-scan';
import { parseJsonValue } from './json-value-parser';
import type { PodValue } from './pod-tree';
import type { WireReader } from './wire-reader';

export class YamlFastPathMiss extends Error {}

export type PodYamlPrinter = (r: WireReader, end: number, indent: number, hideManagedFields: boolean, c: DecodeContext) => string;

/** The form timeToJson writes a time in, 2006-01-02T15:04:05Z (a year beyond 0-9999 makes it longer). */
const isSecondsUtc = (t: string): boolean =>
  t.length === 20 && t.charCodeAt(4) === 45 && t.charCodeAt(7) === 45 && t.charCodeAt(10) === 84 && t.charCodeAt(13) === 58 && t.charCodeAt(16) === 58 && t.charCodeAt(19) === 90;

/** The JSON zero texts of go-json-rules as the YAML they convert to. */
const ZERO_YAML: Record<string, string> = { '""': ' ""', '"0"': ' "0"', '0': ' 0', false: ' false' };

interface YamlMember {
  /** `key:` */
  head: string;
  /** The member's index in MessageSchema.members, where the scan notes it. */
  slot: number;
  rule: Rule;
  elem: Element;
  omit: boolean;
  /** The zero value's YAML, with its leading space. */
  zero: string;
  tag: number;
  /** A packed list's tag, or -1. */
  packedTag: number;
  sub: YamlPlan | null;
  /** The pod's own metadata: hands the managed-fields flag on. */
  handsOnHide: boolean;
  /** metadata.managedFields: left out while they are hidden. */
  managed: boolean;
  /** The pod's apiVersion and kind, which are not fields: their whole line. */
  line: string | null;
  /** A line break, the indentation of `n` and `key:`, by `n`. */
  leads: string[];
}

interface YamlPlan {
  /** In go-yaml's key order. */
  members: YamlMember[];
  scan: ScanTable;
}

/** The plans of every message: members in go-yaml's key order, each with its Go rule. */
function planMessages(): YamlPlan {
  const schema = podSchema();
  const plans = new Map<MessageSchema, YamlPlan>();
  const planOf = (m: MessageSchema): YamlPlan => {
    let plan = plans.get(m);
    if (plan) return plan;
    plan = { members: [], scan: scanTable(m) };
    plans.set(m, plan);
    const isPod = m === schema.pod;
    const members = m.members.map(({ name, field }, slot): YamlMember & { name: string } => {
      if (!isPlainKey(name)) throw new Error(`schema: member ${name} of ${m.fullName} is not a plain YAML key`);
      const { rule, omit, zeroText } = ruleOf(field);
      const elem = elementKind(field);
      return {
        name,
        head: `${name}:`,
        slot,
        rule,
        elem,
        omit,
        zero: ZERO_YAML[zeroText]!,
        tag: (field.number << 3) | (field.map ? WIRE_LEN : field.wireType),
        packedTag: field.repeated && field.wireType === WIRE_VARINT ? (field.number << 3) | WIRE_LEN : -1,
        sub: elem === Element.Message ? planOf(field.message!) : null,
        handsOnHide: isPod && name === 'metadata',
        managed: name === MANAGED_FIELDS,
        line: null,
        leads: [],
      };
    });
    if (isPod) {
      for (const [name, value] of [['apiVersion', 'v1'], ['kind', 'Pod']] as const) {
        members.push({ name, head: `${name}:`, slot: -1, rule: Rule.Scalar, elem: Element.String, omit: false, zero: '', tag: -1, packedTag: -1, sub: null, handsOnHide: false, managed: false, line: `${name}: ${value}`, leads: [] });
      }
    }
    members.sort((a, b) => compareYamlKeys(a.name, b.name));
    plan.members = members;
    return plan;
  };
  return planOf(schema.pod);
}

/** The printer; it writes every string through `emitter`. */
export function createYamlBytesPrinter(emitter: GoYamlEmitter): PodYamlPrinter {
  const pod = planMessages();
  const scanner = new MemberScanner(podSchema().pod);
  const breaks: string[] = [];
  /** A line break and `n` spaces. */
  function NL(n: number): string {
    return (breaks[n] ??= `\n${' '.repeat(n)}`);
  }
  function miss(): never {
    throw new YamlFastPathMiss();
  }
  /** The emitter's text, unless the value is one the JSON path must print (see the top of this file). */
  function checked(text: string, value: string): string {
    if (emitter.problems.length > 0) {
      emitter.problems.length = 0;
      miss();
    }
    const last = text.charCodeAt(text.length - 1);
    return value.includes('\ufffd') || last === 0x2028 || last === 0x2029 ? miss() : text;
  }
  /** A string value; see GoYamlEmitter.valueText. */
  function S(value: string, column: number, indent: number): string {
    return emitter.quickString(value, column) ?? checked(emitter.valueText(value, column, indent), value);
  }
  /**
   * FieldsV1 content (managedFields), through its JSON as kubectl converts it: compact, which reads as the same
   * value as kubectl's indented JSON, whose indentation grows with the square of the depth (400 MB at 9,996).
   */
  function F(value: PodValue, column: number, indent: number): string {
    const json = goJsonCompact(value);
    return checked(emitter.valueText(parseJsonValue(json), column, indent), json);
  }
  /**
   * A time: go-yaml double-quotes a timestamp, and one written to the second needs no escape and cannot fold.
   * c.time() prints a real instant, so its date and time are in range: the form alone says it is a timestamp.
   */
  function T(t: string | null, column: number, indent: number): string {
    return t === null ? ' null' : isSecondsUtc(t) ? ` "${t}"` : S(t, column, indent);
  }
  function I(v: number | string, column: number, indent: number): string {
    return typeof v === 'number' ? ` ${v}` : S(v, column, indent);
  }
  /** A message's members as a mapping value at `n + 2`, or `{}` when it has none. */
  function B(members: string, n: number): string {
    return members === '' ? ' {}' : NL(n + 2) + members;
  }
  /** A message's members as a sequence item. */
  function D(members: string): string {
    return members === '' ? '- {}' : `- ${members}`;
  }
  function text(r: WireReader, from: number, to: number): string {
    r.pos = from;
    return r.string(to);
  }
  /** Map entries in go-yaml's key order, at indentation `n`. */
  function M(r: WireReader, entries: MapEntry[], n: number, quantity: boolean): string {
    const keyed = entries.map((x) => ({ key: text(r, x.k0, x.k1), x }));
    keyed.sort((a, b) => compareYamlKeys(a.key, b.key));
    let o = '';
    for (const { key, x } of keyed) {
      const value = x.v0 < 0 ? (quantity ? '0' : '') : text(r, x.v0, x.v1);
      o += NL(n) + (isPlainKey(key) ? `${key}:${S(value, n + key.length + 1, n)}` : checked(emitter.mapEntry(key, value, n), key + value));
    }
    return o;
  }

  /**
   * Text of one element just read (r.pos at its payload), as a mapping value or a sequence item: `col` is
   * the column after the key's `:` or the item's `-`, `n` the indentation of the collection it is in.
   * Scalars start with their space; messages are their members at `n + 2` (the caller places them).
   */
  const value = (r: WireReader, c: DecodeContext, m: YamlMember, col: number, n: number, hide: boolean): string => {
    switch (m.elem) {
      case Element.String:
        return S(r.string(r.lengthDelimited()), col, n);
      case Element.Int64:
        return ` ${r.int64()}`;
      case Element.Int32:
        return ` ${r.int32()}`;
      case Element.Bool:
        return r.bool() ? ' true' : ' false';
      case Element.Time:
        return T(c.time(), col, n);
      case Element.Quantity:
        return S(c.quantity(), col, n);
      case Element.IntOrString:
        return I(c.intOrString(), col, n);
      case Element.FieldsV1:
        return F(c.fieldsV1(), col, n);
      default: {
        const e = r.lengthDelimited();
        const text = message(r, e, n + 2, hide, c, m.sub!);
        r.pos = e;
        return text;
      }
    }
  };

  /** A message's members joined by line breaks at indentation `n`; the caller places the first one. */
  const message = (r: WireReader, end: number, n: number, h: boolean, c: DecodeContext, plan: YamlPlan): string => {
    const base = scanner.open(r, end, plan.scan, c);
    let o = '';
    for (const m of plan.members) {
      if (m.line !== null) {
        o += (o === '' ? '' : NL(n)) + m.line;
        continue;
      }
      if (m.managed && h) continue;
      const p = scanner.pos[base + m.slot]!;
      const col = n + m.head.length;
      let text: string | null = null;
      switch (m.rule) {
        case Rule.Scalar:
          if (p < 0) text = m.omit ? null : m.zero;
          else {
            r.pos = p;
            r.uint32();
            if (m.elem === Element.String) {
              const e = r.lengthDelimited();
              text = m.omit && e === r.pos ? null : S(r.string(e), col, n);
            } else {
              const v = m.elem === Element.Bool ? r.bool() : m.elem === Element.Int32 ? r.int32() : r.int64();
              text = m.omit && !v ? null : ` ${v}`;
            }
          }
          break;
        case Rule.Pointer:
          if (p >= 0) {
            r.pos = p;
            r.uint32();
            text = m.elem === Element.Message ? B(value(r, c, m, col, n, false), n) : value(r, c, m, col, n, false);
          } else text = m.omit ? null : ' null';
          break;
        case Rule.Struct:
          // Absent (a masked or hand-made pod; Go always writes these): the struct's zero value.
          if (p >= 0) {
            r.pos = p;
            r.uint32();
            text = B(value(r, c, m, col, n, m.handsOnHide && h), n);
          } else text = B(message(r, r.pos, n + 2, m.handsOnHide && h, c, m.sub!), n);
          break;
        case Rule.Time:
          if (p >= 0) {
            r.pos = p;
            r.uint32();
            const t = c.time();
            text = m.omit && t === null ? null : T(t, col, n);
          } else text = m.omit ? null : ' null';
          break;
        case Rule.SpecialValue:
          if (p >= 0) {
            r.pos = p;
            r.uint32();
            text = value(r, c, m, col, n, false);
          } else text = m.zero;
          break;
        case Rule.List:
          // go-yaml writes a sequence under a key at the key's own indentation.
          if (p >= 0) {
            const e = scanner.ends[base + m.slot]!;
            let s = '';
            r.pos = p;
            while (r.pos < e) {
              const t = r.uint32();
              if (t === m.tag) s += NL(n) + item(r, c, m, n);
              else if (t === m.packedTag) {
                const e2 = r.lengthDelimited();
                while (r.pos < e2) s += NL(n) + item(r, c, m, n);
                r.expectEnd(e2);
              } else r.skip(t & 7);
            }
            text = s;
          } else text = m.omit ? null : ' null';
          break;
        case Rule.Map:
          if (p >= 0) text = M(r, mapEntries(r, p, scanner.ends[base + m.slot]!, m.tag, m.elem === Element.Quantity, c), n + 2, m.elem === Element.Quantity);
          else text = m.omit ? null : ' null';
          break;
      }
      if (text !== null) o = o === '' ? m.head + text : o + (m.leads[n] ??= NL(n) + m.head) + text;
    }
    scanner.close(base);
    return o;
  };

  /** A sequence item: `-` and a scalar, or `- ` and a message's members. */
  const item = (r: WireReader, c: DecodeContext, m: YamlMember, n: number): string => (m.elem === Element.Message ? D(value(r, c, m, n + 1, n, false)) : `-${value(r, c, m, n + 1, n, false)}`);

  return (r, end, indent, hideManagedFields, c) => {
    scanner.reset();
    return message(r, end, indent, hideManagedFields, c, pod);
  };
}
