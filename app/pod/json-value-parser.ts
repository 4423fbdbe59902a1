/**
 * JSON text -> the values go-yaml holds after reading it (sigs.k8s.io/yaml's JSONToYAML reads JSON as YAML):
 * objects as Maps (any key, even `__proto__`), and numbers as the text go-yaml prints for them, because
 * JSON.parse would round int64 values beyond 2^53 and forget whether a literal was written as a float.
 */
import { yamlNumberText } from './go-yaml-rules';
import { parseJson, type JsonBuild } from './json-parser';

/** A number as go-yaml prints it (see yamlNumberText); small integers stay plain JS numbers. */
export class YamlNumber {
  constructor(readonly text: string) {}
}

export type JsonValue = string | number | boolean | null | YamlNumber | JsonValue[] | JsonObject;
export type JsonObject = Map<string, JsonValue>;

const yamlValues: JsonBuild<JsonValue, JsonObject> = {
  object: () => new Map(),
  member: (object, key, value) => void object.set(key, value),
  fromObject: (object) => object,
  fromArray: (items) => items,
  // Up to 15 digits an integer is exact as a JS number and prints the same.
  number: (literal, integer) => (integer && literal.length <= 15 ? Number(literal) || 0 : new YamlNumber(yamlNumberText(literal))),
  // Text this parses is kubectl JSON printed here, whose depth the printer already bounded.
  maxDepth: Infinity,
};

export const parseJsonValue = (text: string): JsonValue => parseJson(text, yamlValues);
