/**
 * Pod bytes -> kubectl JSON bytes, without building a tree or creating JS strings: the fast path for export,
 * `nodescope decode` and the detail view. One function per message is generated from the schema: it scans
 * the message once to note where each member is, then writes members in JSON key order with Go's rules
 * (go-json-rules.ts), copying string bytes straight from the input.
 */
import { compileFunctions, js } from '../schema/compile-functions';
import { podSchema, WIRE_LEN, WIRE_VARINT, type FieldSchema, type MessageSchema } from '../schema/pod-schema';
import { DecodeContext } from './decode-context';
import { MANAGED_FIELDS, Rule, ruleOf } from './go-json-rules';
import { compareBytes, JsonBytesWriter, type MemberKey } from './json-bytes-writer';
import type { WireReader } from './wire-reader';

/** Renders FieldsV1 content (managedFields, shown on request only) as JSON text at a depth. */
export type AnyText = (value: unknown, depth: number, pretty: boolean) => string;

export interface MapEntry {
  k0: number;
  k1: number;
  /** Value bytes; -1 when the entry has none (an empty string or a zero Quantity). */
  v0: number;
  v1: number;
}

/** The entries of a map field within `[from, end)`, sorted by key bytes as Go writes them. */
export function mapEntries(r: WireReader, from: number, end: number, tag: number, quantity: boolean, c: DecodeContext): MapEntry[] {
  const entries: MapEntry[] = [];
  r.pos = from;
  while (r.pos < end) {
    const t = r.uint32();
    if (t !== tag) {
      r.skip(t & 7);
      continue;
    }
    const e = r.lengthDelimited();
    const entry: MapEntry = { k0: 0, k1: 0, v0: -1, v1: -1 };
    while (r.pos < e) {
      const et = r.uint32();
      if (et === 10) {
        entry.k1 = r.lengthDelimited();
        entry.k0 = r.pos;
        r.pos = entry.k1;
      } else if (et === 18) {
        const ve = r.lengthDelimited();
        if (!quantity) {
          entry.v0 = r.pos;
          entry.v1 = ve;
        } else {
          while (r.pos < ve) {
            const qt = r.uint32();
            if (qt === 10) {
              entry.v1 = r.lengthDelimited();
              entry.v0 = r.pos;
              r.pos = entry.v1;
            } else c.unknown(qt >>> 3, qt & 7);
          }
          r.expectEnd(ve);
        }
        r.pos = ve;
      } else c.unknown(et >>> 3, et & 7);
    }
    r.expectEnd(e);
    entries.push(entry);
  }
  const buf = r.buf;
  return entries.length > 1 ? entries.sort((a, b) => compareBytes(buf, a.k0, a.k1, b.k0, b.k1)) : entries;
}

const fn = (m: MessageSchema): string => `w_${m.fullName.replace(/\./g, '_')}`;

/**
 * Writes one element whose tag was just read (r.pos at its payload), leaving r.pos after it.
 * `hide` is the managed-fields flag handed to a nested message (true only for the pod's own metadata).
 */
function element(f: FieldSchema, depth: string, hide = 'false'): string {
  switch (f.scalar) {
    case 'string':
      return '{ const e = r.lengthDelimited(); w.str(r.buf, r.pos, e); r.pos = e; }';
    case 'int64':
      return 'w.num(r.int64());';
    case 'int32':
      return 'w.num(r.int32());';
    case 'bool':
      return 'w.bool(r.bool());';
  }
  const m = f.message!;
  switch (m.special) {
    case 'time':
      return 'w.time(c.time());';
    case 'quantity':
      return 'w.jsStr(c.quantity());';
    case 'intOrString':
      return "{ const v = c.intOrString(); if (typeof v === 'string') w.jsStr(v); else w.num(v); }";
    case 'fieldsV1':
      return `w.text(anyText(c.fieldsV1(), ${depth}, w.pretty));`;
    default:
      return `{ const e = r.lengthDelimited(); ${fn(m)}(w, r, e, ${depth}, ${hide}, c); r.pos = e; }`;
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

function emitMember(f: FieldSchema, key: number, p: string, e: string, hide: string): string {
  const { rule, omit, zeroText } = ruleOf(f);
  const KEY = `w.key(K[${key}], d + 1, first); first = false;`;
  const at = `r.pos = ${p}; r.uint32();`;
  const zero = `w.text(${js(zeroText)});`;
  switch (rule) {
    case Rule.Scalar: {
      if (f.scalar === 'string') {
        const read = `${at} const e = r.lengthDelimited();`;
        return omit ? `if (${p} >= 0) { ${read} if (e > r.pos) { ${KEY} w.str(r.buf, r.pos, e); } }` : `${KEY} if (${p} >= 0) { ${read} w.str(r.buf, r.pos, e); } else ${zero}`;
      }
      const read = f.scalar === 'bool' ? 'r.bool()' : f.scalar === 'int32' ? 'r.int32()' : 'r.int64()';
      const write = f.scalar === 'bool' ? 'w.bool(v)' : 'w.num(v)';
      return omit ? `if (${p} >= 0) { ${at} const v = ${read}; if (v) { ${KEY} ${write}; } }` : `${KEY} if (${p} >= 0) { ${at} const v = ${read}; ${write}; } else ${zero}`;
    }
    case Rule.Pointer:
      return `if (${p} >= 0) { ${at} ${KEY} ${element(f, 'd + 1')} }${omit ? '' : ` else { ${KEY} w.text('null'); }`}`;
    case Rule.Struct:
      // Absent (a masked or hand-made pod; Go always writes these): print the struct's zero value.
      return `${KEY} if (${p} >= 0) { ${at} ${element(f, 'd + 1', hide)} } else ${fn(f.message!)}(w, r, r.pos, d + 1, ${hide}, c);`;
    case Rule.Time:
      return omit
        ? `if (${p} >= 0) { ${at} const t = c.time(); if (t !== null) { ${KEY} w.time(t); } }`
        : `${KEY} if (${p} >= 0) { ${at} w.time(c.time()); } else w.text('null');`;
    case Rule.SpecialValue:
      return `${KEY} if (${p} >= 0) { ${at} ${element(f, 'd + 1')} } else ${zero}`;
    case Rule.List: {
      const tag = (f.number << 3) | f.wireType;
      const packed = f.wireType === WIRE_VARINT ? ` else if (t === ${(f.number << 3) | WIRE_LEN}) { const e2 = r.lengthDelimited(); while (r.pos < e2) { w.bytes(w.lead(d + 2, n++ > 0)); ${element(f, 'd + 2')} } r.expectEnd(e2); }` : '';
      const none = omit ? '' : ` else { ${KEY} w.text('null'); }`;
      return `if (${p} >= 0) { ${KEY} w.byte(91); let n = 0; r.pos = ${p}; while (r.pos < ${e}) { const t = r.uint32(); if (t === ${tag}) { w.bytes(w.lead(d + 2, n++ > 0)); ${element(f, 'd + 2')} }${packed} else r.skip(t & 7); } w.indent(d + 1); w.byte(93); }${none}`;
    }
    case Rule.Map: {
      const tag = (f.number << 3) | WIRE_LEN;
      const none = omit ? '' : ` else { ${KEY} w.text('null'); }`;
      const value = `if (x.v0 < 0) w.text(${js(f.message?.special === 'quantity' ? '"0"' : '""')}); else w.str(r.buf, x.v0, x.v1);`;
      return `if (${p} >= 0) { const es = mapEntries(r, ${p}, ${e}, ${tag}, ${f.message?.special === 'quantity'}, c); ${KEY} w.byte(123); for (let i = 0; i < es.length; i++) { const x = es[i]; w.bytes(w.lead(d + 2, i > 0)); w.str(r.buf, x.k0, x.k1); w.bytes(KS); ${value} } w.indent(d + 1); w.byte(125); }${none}`;
    }
  }
}

/**
 * The start of a generated message function (reader `r`, message end `end`): one scan that notes where each
 * member is (slot `p<i>`, and `e<i>` for a list's or map's region), so members can then be written in any order.
 */
export function scanPrologue(m: MessageSchema, index: Map<MessageSchema, number>): { slots: Slots; source: string } {
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

function generate(m: MessageSchema, index: Map<MessageSchema, number>, keys: string[], isPod: boolean): string {
  const { slots, source: scan } = scanPrologue(m, index);
  const body = m.members.map(({ name, field }) => {
    const k = keys.length;
    keys.push(name);
    let code = emitMember(field, k, slots.pos.get(field)!, slots.end.get(field) ?? '0', isPod && name === 'metadata' ? 'h' : 'false');
    if (name === MANAGED_FIELDS) code = `if (!h) { ${code} }`;
    return code;
  });
  const podKeys = isPod ? `first = false; w.indent(d + 1); w.text('"apiVersion"'); w.bytes(KS); w.text('"v1"'); w.byte(44); w.indent(d + 1); w.text('"kind"'); w.bytes(KS); w.text('"Pod"');` : '';
  return `function ${fn(m)}(w, r, end, d, h, c) {
  ${scan}
  let first = true;
  w.byte(123); ${podKeys}
  ${body.join('\n  ')}
  if (first) w.byte(125); else { w.indent(d); w.byte(125); }
}`;
}

export type PodBytesPrinter = (w: JsonBytesWriter, r: WireReader, end: number, depth: number, hideManagedFields: boolean, c: DecodeContext) => void;

/**
 * Compiles the printer for one layout. It writes into the writer it is handed: one compiled printer serves
 * every writer of its layout, so the JIT compiles and optimizes it once per thread, not once per export.
 */
export function compileBytesPrinter(pretty: boolean, anyText: AnyText): PodBytesPrinter {
  const schema = podSchema();
  const messages = [...schema.messages.values()].filter((m) => !m.special);
  const index = new Map(messages.map((m, i) => [m, i]));
  const keys: string[] = [];
  const source = [...messages.map((m) => generate(m, index, keys, m === schema.pod)), `return ${fn(schema.pod)};`].join('\n\n');
  const encoder = new TextEncoder();
  const KS = encoder.encode(pretty ? ': ' : ':');
  const K: MemberKey[] = keys.map((k) => ({ bytes: encoder.encode(`${JSON.stringify(k)}${pretty ? ': ' : ':'}`), withLead: [] }));
  return compileFunctions<PodBytesPrinter>(source, { K, KS, anyText, mapEntries, schemas: messages });
}
