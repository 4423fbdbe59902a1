/**
 * Pod bytes -> kubectl's YAML text without printing JSON and reading it back: the fast path for `-o yaml`
 * and YAML exports. It is generated per message from the schema, and applies the Go JSON rules the bytes ->
 * JSON printer applies (go-json-rules.ts: what is omitted, what prints as a zero value or null), since
 * kubectl's YAML is its JSON converted. What differs is the layout, which is go-yaml's:
 * struct members in go-yaml's key order (fixed per message, so sorted once here), map entries sorted by it
 * at run time, and every string written by the go-yaml emitter itself (quoting, folding, literals).
 *
 * Each message function returns its members joined by line breaks at its indentation; the caller places
 * the first one (after `key:` and a line break, or after `- `). What this layout does not cover throws
 * YamlFastPathMiss, and the caller prints the pod through its JSON text instead: a string kubectl could not
 * carry (its problems need their paths), a string with U+FFFD (invalid UTF-8 is replaced per byte as Go does
 * only on the JSON path).
 */
import { compileFunctions, js } from '../schema/compile-functions';
import { podSchema, WIRE_LEN, WIRE_VARINT, type FieldSchema, type MessageSchema } from '../schema/pod-schema';
import type { DecodeContext } from './decode-context';
import { GoYamlEmitter, isPlainKey } from './go-yaml-emitter';
import { compareYamlKeys } from './go-yaml-rules';
import { MANAGED_FIELDS, Rule, ruleOf } from './go-json-rules';
import { valueToKubectlJson } from './kubectl-json';
import { mapEntries, type MapEntry } from './kubectl-json-bytes';
import { parseJsonValue } from './json-value-parser';
import type { PodValue } from './pod-tree';
import type { WireReader } from './wire-reader';

export class YamlFastPathMiss extends Error {}

export type PodYamlPrinter = (r: WireReader, end: number, indent: number, hideManagedFields: boolean, c: DecodeContext) => string;

/** The form timeToJson writes a time in, 2006-01-02T15:04:05Z (a year beyond 0-9999 makes it longer). */
const isSecondsUtc = (t: string): boolean =>
  t.length === 20 && t.charCodeAt(4) === 45 && t.charCodeAt(7) === 45 && t.charCodeAt(10) === 84 && t.charCodeAt(13) === 58 && t.charCodeAt(16) === 58 && t.charCodeAt(19) === 90;

const fn = (m: MessageSchema): string => `y_${m.fullName.replace(/\./g, '_')}`;

/** The JSON zero texts of go-json-rules as the YAML they convert to. */
const ZERO_YAML: Record<string, string> = { '""': ' ""', '"0"': ' "0"', '0': ' 0', false: ' false' };

/**
 * Text of one element just read (r.pos at its payload), as a mapping value or a sequence item: `col` is
 * the column after the key's `:` or the item's `-`, `n` the indentation of the collection it is in.
 * Scalars start with their space; messages are their members at `n + 2` (the caller places them).
 */
function valueOf(f: FieldSchema, col: string, n: string, hide = 'false'): string {
  switch (f.scalar) {
    case 'string':
      return `S(r.string(r.lengthDelimited()), ${col}, ${n})`;
    case 'int64':
      return `' ' + r.int64()`;
    case 'int32':
      return `' ' + r.int32()`;
    case 'bool':
      return `(r.bool() ? ' true' : ' false')`;
  }
  const m = f.message!;
  switch (m.special) {
    case 'time':
      return `T(c.time(), ${col}, ${n})`;
    case 'quantity':
      return `S(c.quantity(), ${col}, ${n})`;
    case 'intOrString':
      return `I(c.intOrString(), ${col}, ${n})`;
    case 'fieldsV1':
      return `F(c.fieldsV1(), ${col}, ${n})`;
    default:
      // A direct call (the reader left after the message): one call site per message type stays monomorphic.
      return `(e_ = r.lengthDelimited(), t_ = ${fn(m)}(r, e_, ${n} + 2, ${hide}, c), r.pos = e_, t_)`;
  }
}

/** A message's members as a mapping value (under `key:`) or as a sequence item (after `-`). */
const asValue = (f: FieldSchema, text: string, n: string) => (f.message && !f.message.special ? `B(${text}, ${n})` : text);
const asItem = (f: FieldSchema, text: string) => (f.message && !f.message.special ? `D(${text})` : `'-' + ${text}`);

function emitMember(f: FieldSchema, key: string, p: string, e: string, hide: string): string {
  const { rule, omit, zeroText } = ruleOf(f);
  const col = `n + ${key.length + 1}`;
  const add = (text: string) => `o += (o === '' ? '' : NL(n)) + ${js(`${key}:`)} + ${text};`;
  const at = `r.pos = ${p}; r.uint32();`;
  const zero = js(ZERO_YAML[zeroText]!);
  switch (rule) {
    case Rule.Scalar: {
      if (f.scalar === 'string') {
        return omit
          ? `if (${p} >= 0) { ${at} const e = r.lengthDelimited(); if (e > r.pos) { ${add(`S(r.string(e), ${col}, n)`)} } }`
          : `if (${p} >= 0) { ${at} ${add(valueOf(f, col, 'n'))} } else { ${add(zero)} }`;
      }
      const read = f.scalar === 'bool' ? 'r.bool()' : f.scalar === 'int32' ? 'r.int32()' : 'r.int64()';
      return omit ? `if (${p} >= 0) { ${at} const v = ${read}; if (v) { ${add("' ' + v")} } }` : `if (${p} >= 0) { ${at} ${add(`' ' + ${read}`)} } else { ${add(zero)} }`;
    }
    case Rule.Pointer:
      // Absent without omitempty: Go's nil pointer, which kubectl prints as null.
      return `if (${p} >= 0) { ${at} ${add(asValue(f, valueOf(f, col, 'n'), 'n'))} }${omit ? '' : ` else { ${add("' null'")} }`}`;
    case Rule.Struct:
      // Absent (a masked or hand-made pod; Go always writes these): the struct's zero value.
      return `if (${p} >= 0) { ${at} ${add(asValue(f, valueOf(f, col, 'n', hide), 'n'))} } else { ${add(`B(${fn(f.message!)}(r, r.pos, n + 2, ${hide}, c), n)`)} }`;
    case Rule.Time:
      return omit
        ? `if (${p} >= 0) { ${at} const t = c.time(); if (t !== null) { ${add(`T(t, ${col}, n)`)} } }`
        : `if (${p} >= 0) { ${at} ${add(`T(c.time(), ${col}, n)`)} } else { ${add("' null'")} }`;
    case Rule.SpecialValue:
      return `if (${p} >= 0) { ${at} ${add(valueOf(f, col, 'n'))} } else { ${add(zero)} }`;
    case Rule.List: {
      // go-yaml writes a sequence under a key at the key's own indentation.
      const tag = (f.number << 3) | f.wireType;
      const item = `s += NL(n) + ${asItem(f, valueOf(f, 'n + 1', 'n'))};`;
      const packed = f.wireType === WIRE_VARINT ? ` else if (t === ${(f.number << 3) | 2}) { const e2 = r.lengthDelimited(); while (r.pos < e2) { ${item} } r.expectEnd(e2); }` : '';
      const none = omit ? '' : ` else { ${add("' null'")} }`;
      return `if (${p} >= 0) { let s = ''; r.pos = ${p}; while (r.pos < ${e}) { const t = r.uint32(); if (t === ${tag}) { ${item} }${packed} else r.skip(t & 7); } ${add('s')} }${none}`;
    }
    case Rule.Map: {
      const tag = (f.number << 3) | 2;
      const quantity = f.message?.special === 'quantity';
      const none = omit ? '' : ` else { ${add("' null'")} }`;
      return `if (${p} >= 0) { ${add(`M(r, mapEntries(r, ${p}, ${e}, ${tag}, ${quantity}, c), n + 2, ${quantity})`)} }${none}`;
    }
  }
}

interface Slots {
  pos: Map<FieldSchema, string>;
  end: Map<FieldSchema, string>;
}

/** Scan cases: note where each member is (last occurrence; first one and its region for lists and maps). */
function scanCases(m: MessageSchema, slots: Slots, index: Map<MessageSchema, number>, endVar: string): string {
  const cases = m.fields.map((f) => {
    const tag = (f.number << 3) | f.wireType;
    const skip = f.wireType === WIRE_LEN ? 'r.pos = r.lengthDelimited();' : 'r.int64();';
    if (f.inline) {
      // `region` names the embed's end; it must not collide with the members' `e<i>` slots it assigns.
      const region = `region${endVar === 'end' ? 1 : Number(endVar.slice(6)) + 1}`;
      return `case ${tag}: { const ${region} = r.lengthDelimited(); while (r.pos < ${region}) { const start = r.pos; const tag = r.uint32(); switch (tag) { ${scanCases(f.message!, slots, index, region)} } } r.expectEnd(${region}); break; }`;
    }
    const p = slots.pos.get(f)!;
    if (f.repeated || f.map) {
      const note = `if (${p} < 0) { ${p} = start; ${slots.end.get(f)} = ${endVar}; }`;
      const packed = f.repeated && f.wireType === WIRE_VARINT ? `\n      case ${(f.number << 3) | WIRE_LEN}: ${note} r.pos = r.lengthDelimited(); break;` : '';
      return `case ${tag}: ${note} ${skip} break;${packed}`;
    }
    return `case ${tag}: ${p} = start; ${skip} break;`;
  });
  return `${cases.join('\n      ')}\n      default: c.other(schemas[${index.get(m)}], tag, start);`;
}

/**
 * The start of a generated message function (reader `r`, message end `end`): one scan that notes where each
 * member is (slot `p<i>`, and `e<i>` for a list's or map's region), so members can then be written in any order.
 */
function scanPrologue(m: MessageSchema, index: Map<MessageSchema, number>): { slots: Slots; source: string } {
  const slots: Slots = { pos: new Map(), end: new Map() };
  m.members.forEach(({ field }, i) => {
    slots.pos.set(field, `p${i}`);
    if (field.repeated || field.map) slots.end.set(field, `e${i}`);
  });
  const decl = [...slots.pos.values()].map((v) => `${v} = -1`).concat([...slots.end.values()].map((v) => `${v} = 0`));
  const source = `let ${decl.join(', ')};
  while (r.pos < end) {
    const start = r.pos;
    const tag = r.uint32();
    switch (tag) {
      ${scanCases(m, slots, index, 'end')}
    }
  }
  r.expectEnd(end);`;
  return { slots, source };
}

function generate(m: MessageSchema, index: Map<MessageSchema, number>, isPod: boolean): string {
  const { slots, source: scan } = scanPrologue(m, index);
  const members = m.members.map(({ name, field }) => {
    if (!isPlainKey(name)) throw new Error(`schema: member ${name} of ${m.fullName} is not a plain YAML key`);
    let code = emitMember(field, name, slots.pos.get(field)!, slots.end.get(field) ?? '0', isPod && name === 'metadata' ? 'h' : 'false');
    if (name === MANAGED_FIELDS) code = `if (!h) { ${code} }`;
    return { name, code };
  });
  if (isPod) members.push({ name: 'apiVersion', code: `o += (o === '' ? '' : NL(n)) + 'apiVersion: v1';` }, { name: 'kind', code: `o += (o === '' ? '' : NL(n)) + 'kind: Pod';` });
  members.sort((a, b) => compareYamlKeys(a.name, b.name));
  return `function ${fn(m)}(r, end, n, h, c) {
  ${scan}
  let o = '', e_ = 0, t_ = '';
  ${members.map((x) => x.code).join('\n  ')}
  return o;
}`;
}

/** Compiles the printer; it writes every string through `emitter`. */
export function compileYamlBytesPrinter(emitter: GoYamlEmitter): PodYamlPrinter {
  const schema = podSchema();
  const messages = [...schema.messages.values()].filter((m) => !m.special);
  const index = new Map(messages.map((m, i) => [m, i]));
  const source = [...messages.map((m) => generate(m, index, m === schema.pod)), `return ${fn(schema.pod)};`].join('\n\n');

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
    return value.includes('\ufffd') ? miss() : text;
  }
  /** A string value; see GoYamlEmitter.valueText. */
  function S(value: string, column: number, indent: number): string {
    return emitter.quickString(value, column) ?? checked(emitter.valueText(value, column, indent), value);
  }
  /** FieldsV1 content (managedFields of an ObjectMeta other than the pod's own), through its JSON as kubectl converts it. */
  function F(value: PodValue, column: number, indent: number): string {
    const json = valueToKubectlJson(value);
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
  return compileFunctions<PodYamlPrinter>(source, { NL, miss, S, T, I, B, D, F, M, mapEntries });
}
