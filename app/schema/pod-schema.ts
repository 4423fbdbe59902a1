/**
 * The Kubernetes pod schema as one compiled model: the proto files joined with the Go JSON facts. The
 * decoder, the kubectl printer, the encoder and field masks all read this model, so they cannot disagree
 * about a field. The protos come as a protobufjs descriptor generated from proto/ (scripts/gen-pod-proto.ts),
 * so the schema loads without a file system (in the renderer too); it is read here directly, without
 * protobufjs's reflection, which cost a CLI start more than all the rest of the schema.
 */
import { goJsonTags, type GoKind } from './go-json-tags.generated';
import { podProtoDescriptor } from './pod-proto.generated';

export type ScalarType = 'string' | 'bool' | 'int32' | 'int64' | 'bytes';
/** Messages with their own JSON form (docs/pod-json.md, "Special types"). */
export type SpecialType = 'time' | 'quantity' | 'intOrString' | 'fieldsV1';

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_LEN = 2;
export const WIRE_FIXED32 = 5;

export interface FieldSchema {
  number: number;
  protoName: string;
  /** JSON name; for an inlined embedded struct, its proto name (it has no JSON name of its own). */
  json: string;
  goKind: GoKind;
  omitempty: boolean;
  omitzero: boolean;
  /** An embedded struct whose fields appear in the parent's JSON object. */
  inline: boolean;
  repeated: boolean;
  map: boolean;
  /** Element type (map value type for maps): a scalar, or a message. */
  scalar?: ScalarType;
  message?: MessageSchema;
  /** Wire type of one element as the Go encoder writes it. */
  wireType: number;
  owner: MessageSchema;
}

/** A JSON member of a message after inlining: the field and the chain of inline embeds leading to it. */
export interface JsonMember {
  name: string;
  field: FieldSchema;
}

export interface MessageSchema {
  fullName: string;
  name: string;
  special?: SpecialType;
  /** Fields in field-number order. */
  fields: FieldSchema[];
  byNumber: (FieldSchema | undefined)[];
  /** JSON members with inline embeds flattened, sorted in Go's (byte) order of their names. */
  members: JsonMember[];
  memberByName: Map<string, JsonMember>;
}

export interface PodSchema {
  pod: MessageSchema;
  messages: Map<string, MessageSchema>;
}

/** The shape of podProtoDescriptor: protobufjs's JSON form, with every type name fully qualified. */
interface DescriptorNamespace {
  nested?: Record<string, DescriptorNamespace>;
  fields?: Record<string, { type: string; id: number; rule?: 'repeated'; keyType?: string }>;
}

const SPECIALS: Record<string, SpecialType> = {
  'k8s.io.apimachinery.pkg.apis.meta.v1.Time': 'time',
  'k8s.io.apimachinery.pkg.api.resource.Quantity': 'quantity',
  'k8s.io.apimachinery.pkg.util.intstr.IntOrString': 'intOrString',
  'k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1': 'fieldsV1',
};

const SCALARS = new Set<string>(['string', 'bool', 'int32', 'int64', 'bytes']);

const utf8 = new TextEncoder();

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** Go's encoding/json sorts map keys by their UTF-8 bytes; UTF-16 order differs only above U+D7FF. */
export function compareGoKeys(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      if (x < 0xd800 && y < 0xd800) return x - y;
      return compareBytes(utf8.encode(a.slice(i)), utf8.encode(b.slice(i)));
    }
  }
  return a.length - b.length;
}

function compile(descriptor: DescriptorNamespace): PodSchema {
  const types = new Map<string, DescriptorNamespace>();
  const collectTypes = (ns: DescriptorNamespace, prefix: string) => {
    for (const [name, nested] of Object.entries(ns.nested ?? {})) {
      const fullName = prefix ? `${prefix}.${name}` : name;
      if (nested.fields) types.set(fullName, nested);
      collectTypes(nested, fullName);
    }
  };
  collectTypes(descriptor, '');
  const messages = new Map<string, MessageSchema>();

  function messageOf(fullName: string): MessageSchema {
    const existing = messages.get(fullName);
    if (existing) return existing;
    const type = types.get(fullName);
    if (!type) throw new Error(`schema: no message ${fullName}`);
    const schema: MessageSchema = {
      fullName,
      name: fullName.slice(fullName.lastIndexOf('.') + 1),
      special: SPECIALS[fullName],
      fields: [],
      byNumber: [],
      members: [],
      memberByName: new Map(),
    };
    messages.set(fullName, schema);
    const tags = goJsonTags[fullName];
    if (!tags && !schema.special) throw new Error(`schema: no Go JSON facts for ${fullName}`);
    for (const [name, f] of Object.entries(type.fields ?? {}).sort(([, a], [, b]) => a.id - b.id)) {
      const tag = tags?.find((t) => t.n === f.id);
      if (tags && !tag) throw new Error(`schema: no Go JSON facts for ${fullName}.${name}`);
      const repeated = f.rule === 'repeated';
      const field: FieldSchema = {
        number: f.id,
        protoName: name,
        json: tag?.json ?? name,
        goKind: tag?.kind ?? (repeated ? 'list' : 'value'),
        omitempty: tag?.omitempty === true,
        omitzero: tag?.omitzero === true,
        inline: tag?.inline === true,
        repeated,
        map: f.keyType !== undefined,
        wireType: WIRE_LEN,
        owner: schema,
      };
      if (SCALARS.has(f.type)) {
        field.scalar = f.type as ScalarType;
        field.wireType = f.type === 'string' || f.type === 'bytes' ? WIRE_LEN : WIRE_VARINT;
      } else {
        if (!types.has(f.type)) throw new Error(`schema: ${fullName}.${name} has unsupported type ${f.type}`);
        field.message = messageOf(f.type);
      }
      schema.fields.push(field);
      schema.byNumber[f.id] = field;
    }
    return schema;
  }

  const pod = messageOf('k8s.io.api.core.v1.Pod');

  // Members are computed once every message exists, because inline embeds reach into other messages.
  for (const schema of messages.values()) {
    const collect = (m: MessageSchema): JsonMember[] =>
      m.fields.flatMap((field) => (field.inline && field.message ? collect(field.message) : [{ name: field.json, field }]));
    schema.members = collect(schema).sort((a, b) => compareGoKeys(a.name, b.name));
    schema.memberByName = new Map(schema.members.map((m) => [m.name, m]));
  }
  return { pod, messages };
}

let cached: PodSchema | undefined;

/** The proto files the pod schema is made of (relative to proto/). */
export const POD_PROTO_FILES = [
  'k8s.io/api/core/v1/generated.proto',
  'k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto',
  'k8s.io/apimachinery/pkg/api/resource/generated.proto',
  'k8s.io/apimachinery/pkg/util/intstr/generated.proto',
];

/** The pod schema, loaded once per process (or page). */
export function podSchema(): PodSchema {
  if (!cached) {
    cached = compile(podProtoDescriptor as DescriptorNamespace);
  }
  return cached;
}
