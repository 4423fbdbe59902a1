/**
 * The wire bytes of the fields a mask selects of a pod, one after another: equal exactly when those fields'
 * bytes are, so what is decoded of them (decodePodFields with the same mask) can be worked out once for every
 * pod that sends the same bytes there (a template's containers, sent by each of its replicas) and found again
 * by them, without decoding.
 * A field selected whole is copied with its tag; a field selected in part is its tag, the selected fields
 * within it, then a 0 byte (no tag is 0), so a key reads back one way only. Fields are taken in the order they
 * came, each time they came (the decoder reads every occurrence). Bytes are checked only as far as they are
 * walked: a malformed pod gives a WireFormatError or a key, and the caller's decode of it then fails as usual.
 */
import type { FieldMask, Selection } from '../mask/field-mask';
import { podSchema, WIRE_LEN, type MessageSchema } from '../schema/pod-schema';
import { withinEmbed } from './decode-fields';
import { WireReader } from './wire-reader';

/** By field number: what of the field the mask selects (absent: nothing). */
type Plan = (Plan | typeof WHOLE | undefined)[];
const WHOLE = 1;

function planOf(message: MessageSchema, selection: Selection): Plan {
  const plan: Plan = [];
  for (const field of message.fields) {
    if (field.inline) {
      const inner = withinEmbed(selection, field.message!);
      if (inner.members.length) plan[field.number] = planOf(field.message!, inner);
      continue;
    }
    if (!selection.byName.has(field.json)) continue;
    const inner = selection.byName.get(field.json);
    // A map or scalar selected in part has no message to walk into: the whole field is in the key (more
    // bytes than needed only ever tells more pods apart).
    plan[field.number] = inner === undefined || field.map || !field.message ? WHOLE : planOf(field.message, inner);
  }
  return plan;
}

const plans = new WeakMap<FieldMask, Plan>();

/** A byte string built in place, reused from pod to pod. */
export class ByteKey {
  bytes = new Uint8Array(1024);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + n));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  push(from: Uint8Array, start: number, end: number): void {
    this.room(end - start);
    const bytes = this.bytes;
    let at = this.length;
    // Most fields are a few dozen bytes: a loop costs less than a subarray and set().
    if (end - start < 64) for (let i = start; i < end; i++) bytes[at++] = from[i]!;
    else {
      bytes.set(from.subarray(start, end), at);
      at += end - start;
    }
    this.length = at;
  }

  byte(b: number): void {
    this.room(1);
    this.bytes[this.length++] = b;
  }

  /** The key as it stands: a view, valid until the next change. */
  view(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }
}

function walk(r: WireReader, end: number, plan: Plan, key: ByteKey): void {
  const buf = r.buf;
  while (r.pos < end) {
    const start = r.pos;
    const tag = r.uint32();
    const selected = plan[tag >>> 3];
    if (selected === undefined) r.skip(tag & 7);
    else if (selected === WHOLE || (tag & 7) !== WIRE_LEN) {
      r.skip(tag & 7);
      key.push(buf, start, r.pos);
    } else {
      key.push(buf, start, r.pos);
      const inner = r.lengthDelimited();
      walk(r, inner, selected, key);
      r.expectEnd(inner);
      key.byte(0);
    }
  }
}

/** Writes the key of `bytes` (a pod) for `mask` into `key`, from its start. */
export function selectedBytes(bytes: Uint8Array, mask: FieldMask, key: ByteKey): void {
  let plan = plans.get(mask);
  if (!plan) plans.set(mask, (plan = planOf(podSchema().pod, mask.selection)));
  key.length = 0;
  walk(new WireReader(bytes), bytes.length, plan, key);
}
