/**
 * The first pass of the bytes printers (kubectl-json-bytes.ts, kubectl-yaml-bytes.ts): one scan of a
 * message notes where each of its JSON members is, so the printer can then write them in its own key order.
 * A member is noted by its index in MessageSchema.members (inline embeds flattened): the offset of its tag
 * (the last one; a list's or map's first, with the end of the region its elements are in). The kinds of
 * element a member holds are named here too, for both printers.
 */
import { WIRE_LEN, WIRE_VARINT, type FieldSchema, type MessageSchema } from '../schema/pod-schema';
import type { DecodeContext } from './decode-context';
import type { WireReader } from './wire-reader';

/** What one element of a member is on the wire (a const enum: the CLI's bundle inlines its values). */
export const enum Element {
  String,
  Int64,
  Int32,
  Bool,
  Time,
  Quantity,
  IntOrString,
  FieldsV1,
  Message,
}

export const elementKind = (f: FieldSchema): Element => {
  switch (f.scalar) {
    case 'string':
      return Element.String;
    case 'int64':
      return Element.Int64;
    case 'int32':
      return Element.Int32;
    case 'bool':
      return Element.Bool;
  }
  switch (f.message?.special) {
    case 'time':
      return Element.Time;
    case 'quantity':
      return Element.Quantity;
    case 'intOrString':
      return Element.IntOrString;
    case 'fieldsV1':
      return Element.FieldsV1;
  }
  return Element.Message;
};

// What the scan does with a tag.
const SINGLE = 0;
const FIRST = 1;
const INLINE = 2;

interface ScanAction {
  kind: number;
  slot: number;
  /** Length-delimited (skipped by its length), else a varint. */
  len: boolean;
  inline: ScanTable | null;
}

export interface ScanTable {
  schema: MessageSchema;
  /** By tag; undefined for a tag the message does not expect (DecodeContext.other). */
  actions: (ScanAction | undefined)[];
  /** How many members the message has: the slots a scan of it takes. */
  slots: number;
}

function tableOf(m: MessageSchema, slotOf: Map<FieldSchema, number>, slots: number): ScanTable {
  const actions: (ScanAction | undefined)[] = [];
  for (const f of m.fields) {
    const tag = (f.number << 3) | f.wireType;
    const len = f.wireType === WIRE_LEN;
    if (f.inline) {
      actions[tag] = { kind: INLINE, slot: -1, len: true, inline: tableOf(f.message!, slotOf, slots) };
      continue;
    }
    const slot = slotOf.get(f)!;
    if (f.repeated || f.map) {
      actions[tag] = { kind: FIRST, slot, len, inline: null };
      if (f.repeated && f.wireType === WIRE_VARINT) actions[(f.number << 3) | WIRE_LEN] = { kind: FIRST, slot, len: true, inline: null };
    } else actions[tag] = { kind: SINGLE, slot, len, inline: null };
  }
  // No holes: reading one looks up the prototype chain.
  for (let t = 0; t < actions.length; t++) actions[t] ??= undefined;
  return { schema: m, actions, slots };
}

export function scanTable(m: MessageSchema): ScanTable {
  return tableOf(m, new Map(m.members.map(({ field }, i) => [field, i])), m.members.length);
}

/** The most slots open at once while printing `m`: its own and, below it, its deepest member message's. */
function slotsBelow(m: MessageSchema, seen: Set<MessageSchema>): number {
  if (seen.has(m)) throw new Error(`schema: ${m.fullName} contains itself; the bytes printers need a schema without cycles`);
  seen.add(m);
  let deepest = 0;
  for (const { field } of m.members) {
    if (field.message && !field.message.special) deepest = Math.max(deepest, slotsBelow(field.message, seen));
  }
  seen.delete(m);
  return m.members.length + deepest;
}

/** The notes of the messages being printed, nested ones above their parents, on one stack. */
export class MemberScanner {
  /** Each member's tag offset, -1 when absent. */
  readonly pos: Int32Array;
  /** A list's or map's region end (set with its offset). */
  readonly ends: Int32Array;
  private sp = 0;

  /** A stack for printing `root` (a printer's plans never nest deeper than its schema). */
  constructor(root: MessageSchema) {
    const slots = slotsBelow(root, new Set());
    this.pos = new Int32Array(slots);
    this.ends = new Int32Array(slots);
  }

  /** Scans the message in [r.pos, end); its notes are at pos[base + member] until close(base). */
  open(r: WireReader, end: number, t: ScanTable, c: DecodeContext): number {
    const base = this.sp;
    const top = base + t.slots;
    // Only a message opened outside its parent's print could get here; a typed array drops writes past its end.
    if (top > this.pos.length) throw new Error(`${t.schema.fullName} opened deeper than its schema allows`);
    const pos = this.pos;
    for (let i = base; i < top; i++) pos[i] = -1;
    this.sp = top;
    this.scan(r, end, t, base, c);
    return base;
  }

  close(base: number): void {
    this.sp = base;
  }

  /** Drops every message's notes: a pod that failed to print left its own. A printer is not re-entrant. */
  reset(): void {
    this.sp = 0;
  }

  private scan(r: WireReader, end: number, t: ScanTable, base: number, c: DecodeContext): void {
    const { actions } = t;
    const { pos, ends } = this;
    while (r.pos < end) {
      const start = r.pos;
      const tag = r.uint32();
      const a = tag < actions.length ? actions[tag] : undefined;
      if (a === undefined) {
        c.other(t.schema, tag, start);
        continue;
      }
      if (a.kind === INLINE) {
        const region = r.lengthDelimited();
        this.scan(r, region, a.inline!, base, c);
        continue;
      }
      const at = base + a.slot;
      if (a.kind === SINGLE) pos[at] = start;
      else if (pos[at]! < 0) {
        pos[at] = start;
        ends[at] = end;
      }
      if (a.len) r.pos = r.lengthDelimited();
      else r.int64();
    }
    r.expectEnd(end);
  }
}
