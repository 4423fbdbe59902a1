/**
 * A pod tree -> protobuf bytes exactly as Go's v1.Pod.Marshal() writes them: fields in number order,
 * non-pointer scalars and structs always (zero values included), pointers only when set, map entries in
 * key order. The simulated kubelet serves these bytes, so its pods look like a real kubelet's.
 */
import protobuf from 'protobufjs';
import { compareGoKeys, podSchema, WIRE_LEN, type FieldSchema, type MessageSchema } from '../schema/pod-schema';
import { goJsonCompact } from './kubectl-json';
import type { PodObject, PodTree, PodValue } from './pod-tree';

export class PodEncodeError extends Error {
  constructor(path: string, problem: string) {
    super(`cannot encode pod field ${path}: ${problem}`);
    this.name = 'PodEncodeError';
  }
}

type Writer = protobuf.Writer;

function int64Bits(value: number | bigint): number | { low: number; high: number; unsigned: boolean } {
  if (typeof value === 'number') return value;
  const u = BigInt.asUintN(64, value);
  return { low: Number(u & 0xffffffffn) | 0, high: Number(u >> 32n) | 0, unsigned: false };
}

function secondsOf(time: string, path: string): number {
  const ms = Date.parse(time);
  if (Number.isNaN(ms)) throw new PodEncodeError(path, `"${time}" is not an RFC 3339 time`);
  return Math.floor(ms / 1000);
}

class Encoder {
  message(schema: MessageSchema, obj: PodObject, w: Writer, path: string): void {
    for (const field of schema.fields) {
      if (field.inline) {
        // The embedded struct's fields live in the parent object (JSON shape); Go always writes the embed.
        w.uint32((field.number << 3) | WIRE_LEN).fork();
        this.message(field.message!, obj, w, path);
        w.ldelim();
        continue;
      }
      const value = obj[field.json];
      const at = path ? `${path}.${field.json}` : field.json;
      switch (field.goKind) {
        case 'list':
          if (value === undefined || value === null) break;
          if (!Array.isArray(value)) throw new PodEncodeError(at, 'expected a list');
          for (let i = 0; i < value.length; i++) this.one(field, value[i]!, w, `${at}[${i}]`);
          break;
        case 'map':
          if (value === undefined || value === null) break;
          this.map(field, value as PodObject, w, at);
          break;
        case 'pointer':
          if (value !== undefined) this.one(field, value, w, at);
          break;
        case 'value':
          this.one(field, value ?? this.zero(field), w, at);
          break;
      }
    }
  }

  private zero(field: FieldSchema): PodValue {
    if (field.message) {
      const special = field.message.special;
      return special === 'time' ? null : special === 'quantity' ? '0' : special === 'intOrString' ? 0 : {};
    }
    return field.scalar === 'string' ? '' : field.scalar === 'bool' ? false : 0;
  }

  private one(field: FieldSchema, value: PodValue, w: Writer, path: string): void {
    w.uint32((field.number << 3) | field.wireType);
    this.payload(field, value, w, path);
  }

  private payload(field: FieldSchema, value: PodValue, w: Writer, path: string): void {
    switch (field.scalar) {
      case 'string':
        if (typeof value !== 'string') throw new PodEncodeError(path, `expected a string, got ${typeof value}`);
        w.string(value);
        return;
      case 'int32':
        if (typeof value !== 'number') throw new PodEncodeError(path, `expected a number, got ${typeof value}`);
        w.int32(value);
        return;
      case 'int64':
        if (typeof value !== 'number' && typeof value !== 'bigint') throw new PodEncodeError(path, `expected a number, got ${typeof value}`);
        w.int64(int64Bits(value) as number);
        return;
      case 'bool':
        if (typeof value !== 'boolean') throw new PodEncodeError(path, `expected true or false, got ${typeof value}`);
        w.bool(value);
        return;
    }
    const schema = field.message!;
    w.fork();
    switch (schema.special) {
      case undefined:
        if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new PodEncodeError(path, 'expected an object');
        this.message(schema, value as PodObject, w, path);
        break;
      case 'time':
        // Go writes nothing inside a zero Time, and seconds + nanos (always 0 here: JSON keeps seconds) otherwise.
        if (value !== null) {
          if (typeof value !== 'string') throw new PodEncodeError(path, 'expected an RFC 3339 time or null');
          w.uint32(8).int64(secondsOf(value, path)).uint32(16).int32(0);
        }
        break;
      case 'quantity':
        if (typeof value !== 'string') throw new PodEncodeError(path, 'expected a quantity string');
        w.uint32(10).string(value);
        break;
      case 'intOrString':
        if (typeof value === 'number') w.uint32(8).int64(0).uint32(16).int32(value).uint32(26).string('');
        else if (typeof value === 'string') w.uint32(8).int64(1).uint32(16).int32(0).uint32(26).string(value);
        else throw new PodEncodeError(path, 'expected a number or a string');
        break;
      case 'fieldsV1':
        // Go's compact JSON, which is also what the API server stores; written without recursion, as FieldsV1 may
        // nest thousands of levels deep.
        if (value !== null) w.uint32(10).bytes(Buffer.from(goJsonCompact(value)));
        break;
    }
    w.ldelim();
  }

  private map(field: FieldSchema, map: PodObject, w: Writer, path: string): void {
    for (const key of Object.keys(map).sort(compareGoKeys)) {
      w.uint32((field.number << 3) | WIRE_LEN).fork();
      w.uint32(10).string(key);
      w.uint32(18); // value: field 2, length-delimited (a string or a Quantity)
      this.payload(field, map[key]!, w, `${path}[${JSON.stringify(key)}]`);
      w.ldelim();
    }
  }
}

/** Encodes a pod tree as the kubelet would send it. */
export function encodePod(pod: PodTree): Uint8Array {
  const w = protobuf.Writer.create();
  new Encoder().message(podSchema().pod, pod, w, '');
  return w.finish();
}
