/**
 * How a field mask path walks the pod schema: which members a path may continue into (messages,
 * through lists too) and, for the ones that end a path, what they are, for error messages.
 */
import type { FieldSchema, MessageSchema } from '../schema/pod-schema';

/**
 * The message whose members may follow this field in a path, or undefined when the field ends the
 * path: a map (selected whole), a scalar, or a special type (Time, Quantity, IntOrString, FieldsV1)
 * whose JSON is a single value. A list is transparent: the next segment addresses each element.
 */
export function innerMessage(field: FieldSchema): MessageSchema | undefined {
  if (field.map || field.message === undefined || field.message.special !== undefined) return undefined;
  return field.message;
}

/** Singular and plural words for the values a path cannot go into. */
const VALUE_NAMES: Record<string, [string, string]> = {
  time: ['a time', 'times'],
  quantity: ['a quantity', 'quantities'],
  intOrString: ['an int-or-string', 'int-or-strings'],
  fieldsV1: ['managed-fields data (FieldsV1)', 'FieldsV1 values'],
  string: ['a string', 'strings'],
  bool: ['a boolean', 'booleans'],
  int32: ['a number', 'numbers'],
  int64: ['a number', 'numbers'],
  bytes: ['bytes', 'bytes values'],
};

/** What a path-ending field is, in words: "a map, ...", "a list of strings, ...", "a time, ...". */
export function describeLeaf(field: FieldSchema): string {
  if (field.map) return 'a map, which can only be selected whole';
  const [one, many] = VALUE_NAMES[field.message?.special ?? field.scalar ?? 'bytes']!;
  return field.repeated ? `a list of ${many}, which is selected whole` : `${one}, a single value`;
}

/** Per message: lower-cased member name → the paths below it that end in that name, shortest first. */
const nestedIndexes = new Map<MessageSchema, Map<string, string[]>>();

function nestedIndex(schema: MessageSchema): Map<string, string[]> {
  let index = nestedIndexes.get(schema);
  if (index) return index;
  index = new Map();
  // Breadth first, so shorter paths come first; the stack of messages guards against recursive types.
  const queue: { message: MessageSchema; prefix: string; seen: readonly MessageSchema[] }[] = [{ message: schema, prefix: '', seen: [schema] }];
  for (let i = 0; i < queue.length; i++) {
    const { message, prefix, seen } = queue[i]!;
    for (const { name, field } of message.members) {
      const path = prefix + name;
      const key = name.toLowerCase();
      const paths = index.get(key) ?? [];
      if (paths.length === 0) index.set(key, paths);
      paths.push(path);
      const inner = innerMessage(field);
      if (inner && !seen.includes(inner)) queue.push({ message: inner, prefix: `${path}.`, seen: [...seen, inner] });
    }
  }
  nestedIndexes.set(schema, index);
  return index;
}

/**
 * Paths inside `schema` whose last field is `name` (ignoring case), shortest first: for a field given
 * at the wrong level (`phase` at the root is `status.phase`).
 */
export function nestedPaths(schema: MessageSchema, name: string): readonly string[] {
  return nestedIndex(schema).get(name.toLowerCase()) ?? [];
}
