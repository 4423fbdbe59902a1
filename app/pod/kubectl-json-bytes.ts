/**
 * Pod bytes -> kubectl JSON bytes, without building a tree or creating JS strings: the fast path for export,
 * `nodescope decode` and the detail view. Each message gets a plan from the schema (its members in JSON key
 * order, each with its Go rule, and a table from wire tag to member); one small interpreter walks the plans.
 * It scans a message once to note where each member is, then writes members in key order with Go's rules
 * (go-json-rules.ts), copying string bytes straight from the input.
 *
 * An interpreter rather than one generated function per message (as the decoder and the tree printer are):
 * TurboFan compiled the 133 generated functions again in every thread that prints, ~1.2 s of CPU for an
 * export of 30,000 pods, and recompiled the largest as rare fields turned up. These few small functions
 * are optimized early, and print as fast once warm (measured 7% faster, in one thread).
 */
import { podSchema, WIRE_LEN, WIRE_VARINT, type MessageSchema } from '../schema/pod-schema';
import { Element, elementKind, MemberScanner, scanTable, type ScanTable } from './member-scan';
import type { DecodeContext } from './decode-context';
import { MANAGED_FIELDS, Rule, ruleOf } from './go-json-rules';
import { compareBytes, type JsonBytesWriter, type MemberKey } from './json-bytes-writer';
import type { WireReader } from './wire-reader';

/** Renders FieldsV1 content (managedFields, shown on request only) as JSON text at a depth. */
export type AnyText = (value: unknown, depth: number, pretty: boolean) => string;

export type PodBytesPrinter = (w: JsonBytesWriter, r: WireReader, end: number, depth: number, hideManagedFields: boolean, c: DecodeContext) => void;

export interface MapEntry {
  k0: number;
  k1: number;
  /** Value bytes; -1 when the entry has none (an empty string or a zero Quantity). */
  v0: number;
  v1: number;
}

/** The entries of a map field within `[from, end)`, sorted by key bytes as Go writes them, one per key. */
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
  if (entries.length < 2) return entries;
  const buf = r.buf;
  // A stable sort: of entries with one key (Go never writes them; a hand-made pod may), the last one read stays, as in Go.
  entries.sort((a, b) => compareBytes(buf, a.k0, a.k1, b.k0, b.k1));
  let kept = 0;
  for (let i = 0; i < entries.length; i++) {
    const next = entries[i + 1];
    if (next && compareBytes(buf, entries[i]!.k0, entries[i]!.k1, next.k0, next.k1) === 0) continue;
    entries[kept++] = entries[i]!;
  }
  entries.length = kept;
  return entries;
}

interface MemberPlan {
  rule: Rule;
  elem: Element;
  key: MemberKey;
  tag: number;
  /** A packed list's tag (its elements in one length-delimited run), or -1. */
  packedTag: number;
  omit: boolean;
  zero: string;
  /** The element's message (not a special one). */
  sub: MessagePlan | null;
  /** The pod's own metadata: hands the managed-fields flag on. */
  handsOnHide: boolean;
  /** metadata.managedFields: left out while they are hidden. */
  managed: boolean;
}

interface MessagePlan {
  /** In JSON key order, as MessageSchema.members. */
  members: MemberPlan[];
  scan: ScanTable;
  isPod: boolean;
}

/** The plans of every message, with member keys encoded for one layout. */
function planMessages(pretty: boolean): MessagePlan {
  const schema = podSchema();
  const plans = new Map<MessageSchema, MessagePlan>();
  const encoder = new TextEncoder();
  const planOf = (m: MessageSchema): MessagePlan => {
    let plan = plans.get(m);
    if (plan) return plan;
    plan = { members: [], scan: scanTable(m), isPod: m === schema.pod };
    plans.set(m, plan);
    plan.members = m.members.map(({ name, field }) => {
      const { rule, omit, zeroText } = ruleOf(field);
      const elem = elementKind(field);
      return {
        rule,
        elem,
        key: { bytes: encoder.encode(`${JSON.stringify(name)}${pretty ? ': ' : ':'}`), withLead: [] },
        tag: (field.number << 3) | (field.map ? WIRE_LEN : field.wireType),
        packedTag: field.repeated && field.wireType === WIRE_VARINT ? (field.number << 3) | WIRE_LEN : -1,
        omit,
        zero: zeroText,
        sub: elem === Element.Message ? planOf(field.message!) : null,
        handsOnHide: plan!.isPod && name === 'metadata',
        managed: name === MANAGED_FIELDS,
      };
    });
    return plan;
  };
  return planOf(schema.pod);
}

/**
 * The printer for one layout. It writes into the writer it is handed: one printer serves every writer of
 * its layout, so the JIT optimizes it once per thread, not once per export.
 */
export function createBytesPrinter(pretty: boolean, anyText: AnyText): PodBytesPrinter {
  const pod = planMessages(pretty);
  const encoder = new TextEncoder();
  const KS = encoder.encode(pretty ? ': ' : ':');
  const scanner = new MemberScanner(podSchema().pod);

  /** One element whose tag was just read (r.pos at its payload), leaving r.pos after it. */
  const element = (w: JsonBytesWriter, r: WireReader, c: DecodeContext, m: MemberPlan, depth: number, hide: boolean): void => {
    switch (m.elem) {
      case Element.String: {
        const e = r.lengthDelimited();
        w.str(r.buf, r.pos, e);
        r.pos = e;
        return;
      }
      case Element.Int64:
        return w.num(r.int64());
      case Element.Int32:
        return w.num(r.int32());
      case Element.Bool:
        return w.bool(r.bool());
      case Element.Time:
        return w.time(c.time());
      case Element.Quantity:
        return w.jsStr(c.quantity());
      case Element.IntOrString: {
        const v = c.intOrString();
        if (typeof v === 'string') w.jsStr(v);
        else w.num(v);
        return;
      }
      case Element.FieldsV1:
        return w.text(anyText(c.fieldsV1(), depth, w.pretty));
      default: {
        const e = r.lengthDelimited();
        message(w, r, e, depth, hide, c, m.sub!);
        r.pos = e;
      }
    }
  };

  const message = (w: JsonBytesWriter, r: WireReader, end: number, d: number, h: boolean, c: DecodeContext, plan: MessagePlan): void => {
    const members = plan.members;
    const base = scanner.open(r, end, plan.scan, c);
    let first = true;
    w.byte(123);
    if (plan.isPod) {
      first = false;
      w.indent(d + 1);
      w.text('"apiVersion"');
      w.bytes(KS);
      w.text('"v1"');
      w.byte(44);
      w.indent(d + 1);
      w.text('"kind"');
      w.bytes(KS);
      w.text('"Pod"');
    }
    for (let i = 0; i < members.length; i++) {
      const m = members[i]!;
      if (m.managed && h) continue;
      const p = scanner.pos[base + i]!;
      switch (m.rule) {
        case Rule.Scalar:
          if (m.elem === Element.String) {
            if (p >= 0) {
              r.pos = p;
              r.uint32();
              const e = r.lengthDelimited();
              if (!m.omit || e > r.pos) {
                w.key(m.key, d + 1, first);
                first = false;
                w.str(r.buf, r.pos, e);
              }
            } else if (!m.omit) {
              w.key(m.key, d + 1, first);
              first = false;
              w.text(m.zero);
            }
          } else if (p >= 0) {
            r.pos = p;
            r.uint32();
            const v = m.elem === Element.Bool ? r.bool() : m.elem === Element.Int32 ? r.int32() : r.int64();
            if (!m.omit || v) {
              w.key(m.key, d + 1, first);
              first = false;
              if (typeof v === 'boolean') w.bool(v);
              else w.num(v);
            }
          } else if (!m.omit) {
            w.key(m.key, d + 1, first);
            first = false;
            w.text(m.zero);
          }
          break;
        case Rule.Pointer:
          if (p >= 0) {
            r.pos = p;
            r.uint32();
            w.key(m.key, d + 1, first);
            first = false;
            element(w, r, c, m, d + 1, false);
          } else if (!m.omit) {
            w.key(m.key, d + 1, first);
            first = false;
            w.text('null');
          }
          break;
        case Rule.Struct:
          // Absent (a masked or hand-made pod; Go always writes these): the struct's zero value.
          w.key(m.key, d + 1, first);
          first = false;
          if (p >= 0) {
            r.pos = p;
            r.uint32();
            element(w, r, c, m, d + 1, m.handsOnHide && h);
          } else message(w, r, r.pos, d + 1, m.handsOnHide && h, c, m.sub!);
          break;
        case Rule.Time:
          if (p >= 0) {
            r.pos = p;
            r.uint32();
            const t = c.time();
            if (!m.omit || t !== null) {
              w.key(m.key, d + 1, first);
              first = false;
              w.time(t);
            }
          } else if (!m.omit) {
            w.key(m.key, d + 1, first);
            first = false;
            w.text('null');
          }
          break;
        case Rule.SpecialValue:
          w.key(m.key, d + 1, first);
          first = false;
          if (p >= 0) {
            r.pos = p;
            r.uint32();
            element(w, r, c, m, d + 1, false);
          } else w.text(m.zero);
          break;
        case Rule.List:
          if (p >= 0) {
            const e = scanner.ends[base + i]!;
            w.key(m.key, d + 1, first);
            first = false;
            w.byte(91);
            let n = 0;
            r.pos = p;
            while (r.pos < e) {
              const t = r.uint32();
              if (t === m.tag) {
                w.bytes(w.lead(d + 2, n++ > 0));
                element(w, r, c, m, d + 2, false);
              } else if (t === m.packedTag) {
                const e2 = r.lengthDelimited();
                while (r.pos < e2) {
                  w.bytes(w.lead(d + 2, n++ > 0));
                  element(w, r, c, m, d + 2, false);
                }
                r.expectEnd(e2);
              } else r.skip(t & 7);
            }
            w.indent(d + 1);
            w.byte(93);
          } else if (!m.omit) {
            w.key(m.key, d + 1, first);
            first = false;
            w.text('null');
          }
          break;
        case Rule.Map:
          if (p >= 0) {
            const quantity = m.elem === Element.Quantity;
            const es = mapEntries(r, p, scanner.ends[base + i]!, m.tag, quantity, c);
            w.key(m.key, d + 1, first);
            first = false;
            w.byte(123);
            for (let k = 0; k < es.length; k++) {
              const x = es[k]!;
              w.bytes(w.lead(d + 2, k > 0));
              w.str(r.buf, x.k0, x.k1);
              w.bytes(KS);
              if (x.v0 < 0) w.text(quantity ? '"0"' : '""');
              else w.str(r.buf, x.v0, x.v1);
            }
            w.indent(d + 1);
            w.byte(125);
          } else if (!m.omit) {
            w.key(m.key, d + 1, first);
            first = false;
            w.text('null');
          }
          break;
      }
    }
    if (first) w.byte(125);
    else {
      w.indent(d);
      w.byte(125);
    }
    scanner.close(base);
  };

  return (w, r, end, depth, hideManagedFields, c) => {
    scanner.reset();
    message(w, r, end, depth, hideManagedFields, c, pod);
  };
}
